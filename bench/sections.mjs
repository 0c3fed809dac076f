/**
 * @module The benchmark sections, in the order they run. `ownStack` sections get a stack of their
 * own, closed after them (so their builder backlog cannot load later sections); the others share
 * one stack and the zones in bench/lib/fixtures.mjs. `peers` sections run with --peers only.
 */
import { runBatchBench } from './batch.mjs'
import { runDnssecBench } from './dnssec.mjs'
import { runDohBench } from './doh.mjs'
import { manyZonesShards, runManyZonesBench } from './many-zones.mjs'
import { runMemoryBench } from './memory.mjs'
import { runPeersBench } from './peers/index.mjs'
import { runPropagationBench } from './propagation.mjs'
import { runStartupBench } from './startup.mjs'

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
    id: 'many-zones',
    title: 'Many zones over D1 shards',
    run: runManyZonesBench,
    ownStack: true,
    stackOptions: () => ({ shards: manyZonesShards() }),
  },
  {
    id: 'peers',
    title: 'Peers: BIND 9.18 and PowerDNS 4.7 on the same machine',
    run: runPeersBench,
    peers: true,
  },
]
