/**
 * @module The benchmark sections, in the order they run. `ownStack` sections get a stack of their
 * own, closed after them (so their builder backlog cannot load later sections); the others share
 * one stack and the zones in bench/lib/fixtures.mjs. `peers` sections run with --peers only.
 */
import { runAuthBench } from './auth.mjs'
import { runBatchBench } from './batch.mjs'
import { runCatalogColdStart } from './catalog-cold-start.mjs'
import { runDnssecBench } from './dnssec.mjs'
import { runDohBench } from './doh.mjs'
import { manyZonesShards, runManyZonesBench } from './many-zones.mjs'
import { isolateStack, runIsolateBench } from './isolate.mjs'
import { runMemoryBench } from './memory.mjs'
import { runPeersBench } from './peers/index.mjs'
import { productionModelStack, runProductionModelBench } from './production-model.mjs'
import { runPropagationBench } from './propagation.mjs'
import { runStartupBench } from './startup.mjs'
import { runZones100k, runZones10k, zonesStack } from './zones-at-scale.mjs'
import { runTransfersBench } from './transfers.mjs'

export const SECTIONS = [
  { id: 'batch', title: 'Batch API vs one call per record', run: runBatchBench, ownStack: true },
  {
    id: 'propagation',
    title: 'Propagation: commit → visible through DoH, full builds',
    run: runPropagationBench,
  },
  { id: 'doh', title: 'DoH throughput and latency', run: runDohBench },
  { id: 'dnssec', title: 'Signed answers (DNSSEC, DO=1) against unsigned', run: runDnssecBench },
  { id: 'startup', title: 'Start to first answer', run: runStartupBench },
  { id: 'memory', title: 'Memory (workerd process RSS)', run: runMemoryBench },
  {
    id: 'isolate',
    title: 'API isolate: JS heap of the largest requests, CPU of the full build and the cron',
    run: runIsolateBench,
    ownStack: true,
    stackOptions: isolateStack,
  },
  {
    id: 'many-zones',
    title: 'Many zones over D1 shards',
    run: runManyZonesBench,
    ownStack: true,
    stackOptions: () => ({ shards: manyZonesShards() }),
  },
  {
    id: 'auth',
    title: 'Authentication during a 100,000-change commit',
    run: runAuthBench,
    ownStack: true,
  },
  {
    id: 'zones-10k',
    title: 'DoH over 10,000 zones and names outside every zone (deployed read settings)',
    run: runZones10k,
    ownStack: true,
    stackOptions: zonesStack('zones-10k'),
  },
  {
    id: 'zones-100k',
    title: 'DoH over 100,000 zones (deployed read settings)',
    run: runZones100k,
    ownStack: true,
    stackOptions: zonesStack('zones-100k'),
  },
  {
    id: 'production-model',
    title: 'Commit → visible under the production KV model (deployed settings)',
    run: runProductionModelBench,
    ownStack: true,
    stackOptions: productionModelStack,
  },
  {
    id: 'catalog-cold-start',
    title: 'Secondary cold start through the catalog zone (ours and BIND → BIND)',
    run: runCatalogColdStart,
    ownStack: true,
  },
  {
    id: 'transfers',
    title: 'Zone transfers beside BIND → BIND: AXFR out, change → secondary, AXFR in',
    run: runTransfersBench,
    ownStack: true,
  },
  {
    id: 'peers',
    title: 'Peers: BIND 9.18 and PowerDNS 4.7 on the same machine',
    run: runPeersBench,
    peers: true,
  },
]
