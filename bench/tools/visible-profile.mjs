#!/usr/bin/env node
/**
 * @module Where a one-record change's commit → visible time goes (not part of `pnpm bench`):
 * creates and deletes A records at fresh names on a 1,000-record zone, pacing off, and splits
 * each change's time into handler end → pass start (notify), the pass (builder's own timing),
 * and head written → seen through DoH (reader). `node bench/tools/visible-profile.mjs [changes=60]`;
 * DOH_VARS='{"REVALIDATE_MS":"20"}' sets DoH worker variables.
 */
import { apiClient } from '../lib/api.mjs'
import { createBenchZone } from '../lib/fixtures.mjs'
import { pollDoh } from '../lib/propagation.mjs'
import { startBenchStack } from '../lib/stack.mjs'
import { summarize } from '../lib/stats.mjs'

const changes = Number(process.argv[2] ?? 60)
const stack = await startBenchStack({ dohBindings: JSON.parse(process.env.DOH_VARS ?? '{}') })
const log = (m) => console.log(`[visible] ${m}`)
try {
  const api = apiClient(stack.url, stack.token)
  const zone = await createBenchZone({ api, log }, 'small.bench.example', 1000)
  const builder = await stack.builder(zone.id)
  const s = {
    commit: [],
    notify: [],
    pass: [],
    'pass.read': [],
    'pass.nodes': [],
    'pass.publish': [],
    reader: [],
    server: [],
    response: [],
  }
  let rec = null
  for (let k = 0; k < changes + 10; k++) {
    const create = k % 2 === 0
    const t0 = Date.now()
    // The poller runs from the submit on, as DNS clients do, not from the API response.
    const name = create ? `v${k}` : rec.name
    const fqdn = `${name}.${zone.name}`
    const seenP = pollDoh(
      stack.dohUrl,
      fqdn,
      create ? (a) => a.data.includes('192.0.2.7') : (a) => a.status === 3
    )
    let headers
    if (create) {
      const { result, headers: h } = await api.call('POST', `/zones/${zone.id}/dns_records`, {
        type: 'A',
        name,
        content: '192.0.2.7',
        ttl: 60,
      })
      rec = { id: result.id, name }
      headers = h
    } else headers = (await api.call('DELETE', `/zones/${zone.id}/dns_records/${rec.id}`)).headers
    const tResponse = Date.now()
    const handlerEnd = t0 + api.serverMs(headers)
    const seen = await seenP
    const tSeen = performance.timeOrigin + seen.atMs
    if (k < 10) continue
    const st = await builder.status()
    const lp = st.lastPass
    s.commit.push(tSeen - handlerEnd)
    s.notify.push(lp.at - lp.ms - handlerEnd)
    s.pass.push(lp.ms)
    for (const [k, v] of Object.entries(lp.phaseMs ?? {})) s[`pass.${k}`].push(v)
    s.reader.push(tSeen - lp.at)
    s.server.push(api.serverMs(headers))
    s.response.push(tResponse - handlerEnd)
  }
  for (const [k, v] of Object.entries(s)) {
    const r = summarize(v)
    if (v.length)
      console.log(
        `${k.padEnd(12)} p50 ${r.median.toFixed(1).padStart(6)}  p99 ${r.p99.toFixed(1).padStart(6)}  min ${r.min.toFixed(1)}  max ${r.max.toFixed(1)}`
      )
  }
} finally {
  await stack.close()
}
