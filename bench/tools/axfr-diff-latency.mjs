#!/usr/bin/env node
/**
 * @module A change on a primary that serves only whole zones (not part of `pnpm bench`): a BIND
 * primary of a static zone of `size` records (no updates, so no journal: it answers every IXFR
 * with the whole zone, as PowerDNS 4.7 does), NOTIFYing through the DNS front; one of our
 * secondary zones pulls it. Then `changes` times, each once the previous one is answered: one
 * record added to the zone file with the serial moved, and named reloaded (SIGHUP); timed from
 * the signal until our DoH answers the new record. Prints the median and p99, with how the
 * secondary zone applied each transfer (the API's `secondary zone transfer committed` lines:
 * `difference` when the AXFR was applied as its difference from the copy held, `whole` when it
 * replaced every record).
 *
 * (Past 1,100,000 records an AXFR is replaced whole; below, the difference is measured.)
 *
 *   node bench/tools/axfr-diff-latency.mjs [size=100000] [changes=10]
 */
import { writeFileSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { aRecord, apiClient } from '../lib/api.mjs'
import { zoneRecords } from '../lib/fixtures.mjs'
import { pollDoh } from '../lib/propagation.mjs'
import { secondaryOfBind } from '../lib/secondary-of-bind.mjs'
import { startBenchStack } from '../lib/stack.mjs'
import { summarize } from '../lib/stats.mjs'
import { helpIfAsked } from '../lib/tool-help.mjs'
import { sleep } from '../peers/proc.mjs'

helpIfAsked(import.meta.url)

const size = Number(process.argv[2] ?? 100_000)
const changes = Number(process.argv[3] ?? 10)
const ZONE = 'axfr-diff.bench.example'
const log = (m) => console.log(`[axfr-diff] ${m}`)

const body = [...zoneRecords(size)].map((r) => `${r.name} ${r.ttl} IN ${r.type} ${r.content}\n`)
/** The zone file at `serial` with the base records and `added` more. */
function zoneFile(serial, added) {
  const head = `$ORIGIN ${ZONE}.\n$TTL 300\n@ IN SOA ns1.${ZONE}. hostmaster.${ZONE}. ${serial} 3600 600 86400 300\n@ IN NS ns1.${ZONE}.\nns1 IN A 192.0.2.53\n`
  const more = added.map((r) => `${r.name} ${r.ttl} IN A ${r.content}\n`)
  return head + body.join('') + more.join('')
}

const dir = mkdtempSync(path.join(tmpdir(), 'edgedns-axfr-diff-'))
const applied = []
const stack = await startBenchStack({
  onRuntimeLog: ({ message }) => {
    if (process.env.VERBOSE && /secondary|transfer/i.test(message)) log(message)
    const at = message.indexOf('secondary zone transfer committed')
    if (at >= 0) applied.push(JSON.parse(message.slice(message.indexOf('{', at))))
  },
})
const stopping = [{ stop: () => stack.close() }]
try {
  const api = apiClient(stack.url, stack.token)
  const file = path.join(dir, `${ZONE}.zone`)
  let serial = 1
  const added = []
  writeFileSync(file, zoneFile(serial, added))
  const last = aRecord('base', size - 1)
  const { primary, loadMs } = await secondaryOfBind({
    api,
    stack,
    dir,
    zone: ZONE,
    file,
    lastName: `${last.name}.${ZONE}`,
    primary: { notifyFront: true, updates: false },
    stopping,
  })
  log(`loaded ${size} records in ${(loadMs / 1000).toFixed(1)} s`)
  // The first load's full build is done before the first change is timed.
  await sleep(3000)

  const seen = []
  for (let j = 0; j < changes; j++) {
    const rec = aRecord('chg', j)
    added.push(rec)
    writeFileSync(file, zoneFile(++serial, added))
    const tChange = performance.now()
    primary.proc.child.kill('SIGHUP')
    const answered = await pollDoh(
      stack.dohUrl,
      `${rec.name}.${ZONE}`,
      (a) => a.data.includes(rec.content),
      { everyMs: 5, timeoutMs: 120_000 }
    )
    seen.push(answered.atMs - tChange)
    await sleep(500)
  }
  const s = summarize(seen)
  log(
    `change on the primary → answered over DoH: ${s.median.toFixed(0)} ms p50, ${s.p99.toFixed(0)} ms p99 (${s.min.toFixed(0)}–${s.max.toFixed(0)} ms), ${changes} changes`
  )
  const kinds = applied.slice(1).map((a) => `${a.kind}/${a.applied} ${a.commitMs} ms`)
  log(`the changes' commits: ${kinds.join(', ')}`)
  const fallbacks = primary.log().match(/falling back to AXFR/g)
  log(`named answered ${fallbacks?.length ?? 0} IXFR requests with the whole zone`)
} finally {
  for (const p of stopping.reverse()) await p.stop().catch(() => {})
  rmSync(dir, { recursive: true, force: true })
}
