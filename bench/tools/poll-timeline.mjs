#!/usr/bin/env node
/**
 * @module Every DoH poll of a one-record change on one line (not part of `pnpm bench`): creates A
 * records at fresh names on a 1,000-record zone, pacing off, and prints for each change, in ms
 * after the commit, when it was submitted, when its response arrived, when the builder's pass
 * started and wrote its head, and each poll as sent→answered (`*`: the one that saw the change).
 * Shows which work on workerd's one thread held a poll up. `node bench/tools/poll-timeline.mjs
 * [changes=30]`; DOH_VARS / API_VARS (JSON) set worker variables.
 */
import { apiClient } from '../lib/api.mjs'
import { createBenchZone } from '../lib/fixtures.mjs'
import { dohJson } from '../lib/propagation.mjs'
import { startBenchStack } from '../lib/stack.mjs'

const changes = Number(process.argv[2] ?? 30)
const WARMUP = 10
const stack = await startBenchStack({
  dohBindings: JSON.parse(process.env.DOH_VARS ?? '{}'),
  apiBindings: JSON.parse(process.env.API_VARS ?? '{}'),
})
/** Wall clock with performance.now()'s sub-millisecond part (the workers' clocks are whole ms). */
const clock = () => performance.timeOrigin + performance.now()
try {
  const api = apiClient(stack.url, stack.token)
  const zone = await createBenchZone({ api, log: () => {} }, 'small.bench.example', 1000)
  const builder = await stack.builder(zone.id)
  for (let k = 0; k < WARMUP + changes; k++) {
    const fqdn = `v${k}.${zone.name}`
    const polls = []
    const poller = (async () => {
      for (;;) {
        const sent = clock()
        const a = await dohJson(stack.dohUrl, fqdn)
        const seen = a.data.includes('192.0.2.7')
        polls.push([sent, clock(), seen])
        if (seen) return
      }
    })()
    const t0 = clock()
    const { headers } = await api.call('POST', `/zones/${zone.id}/dns_records`, {
      type: 'A',
      name: `v${k}`,
      content: '192.0.2.7',
      ttl: 60,
    })
    const tResponse = clock()
    await poller
    const commit = Number(headers.get('x-edgedns-committed-at'))
    // A pass reports after the yield that follows its head: wait for its report.
    let lp
    for (let i = 0; i < 200 && !lp; i++) {
      const passes = (await builder.status()).recentPasses
      lp = passes.find((p) => p.kind === 'per-record' && p.at >= commit)
      if (!lp) await new Promise((r) => setTimeout(r, 5))
    }
    if (!lp) throw new Error(`no pass reported after the commit at ${commit}`)
    if (k < WARMUP) continue
    const at = (t) => (t - commit).toFixed(1)
    const line = polls.map(([s, e, ok]) => `${at(s)}→${at(e)}${ok ? '*' : ''}`).join(' ')
    console.log(
      `submit ${at(t0)} response ${at(tResponse)} pass ${at(lp.at - lp.ms)} head ${at(lp.at)} | polls ${line}`
    )
  }
} finally {
  await stack.close()
}
