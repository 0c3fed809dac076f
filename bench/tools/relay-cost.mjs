/**
 * @module What one relayed request to `POST /client/v4/dns_transfer` costs the API worker: the
 * bench stack (lib/stack.mjs) with N minimal zones of one account, each with outgoing transfers
 * enabled to a peer with a TSIG key, plus an ACL; then K TSIG-signed SOA checks and K signed AXFRs
 * (the two requests a catalog secondary makes per member zone), one after another, each read to
 * its end: first paired as a secondary asks (a zone's SOA check, then its AXFR), then K of each
 * kind on its own; then the pairs again with 16 zones in flight, as a secondary transferring many
 * zones at once asks (D1 runs one query at a time, so there the number of queries counts). Prints
 * the median and p90 milliseconds per request, and the wall time per zone in flight.
 *
 *   pnpm exec node bench/tools/relay-cost.mjs [N=200] [K=200]
 *
 * The number of D1 round trips per request is pinned by test/api/zone-transfer-relay-reads.test.ts.
 */
import { apiClient } from '../lib/api.mjs'
import { seedInD1 } from '../lib/d1-zone-seed.mjs'
import { startBenchStack } from '../lib/stack.mjs'
import { helpIfAsked } from '../lib/tool-help.mjs'
import { enableOutgoingForAccount, makePeer } from '../lib/transfer-settings.mjs'
import { relaySender } from '../lib/transfer-relay.mjs'

helpIfAsked(import.meta.url)

const N = Number(process.argv[2] ?? 200)
const K = Number(process.argv[3] ?? 200)
const PARENT = 'relay.bench'
const KEY = { name: 'xfr-key', secret: 'cmVsYXktY29zdC1iZW5jaC1rZXktMzItb2N0ZXRzLW8=' }

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]
const p90 = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length * 0.9)]

const stack = await startBenchStack()
try {
  const api = apiClient(stack.url, stack.token)
  const account = (await api.call('POST', '/accounts', { name: 'relay-cost' })).result
  await seedInD1(stack.db, stack.db, account.id, 0, N, () => {}, { parent: PARENT, maxRecords: 1 })
  const base = `/accounts/${account.id}/secondary_dns`
  const peer = await makePeer(api, account.id, {
    name: 'bind',
    ip: '127.0.0.2',
    port: 53,
    key: KEY,
  })
  await api.call('POST', `${base}/acls`, { name: 'loopback', ip_range: '127.0.0.0/8' })
  await enableOutgoingForAccount(stack.db, account.id, peer)
  const names = (
    await stack.db
      .prepare('SELECT name FROM zones WHERE account_id = ?1 ORDER BY name')
      .bind(account.id)
      .all()
  ).results.map((r) => r.name)

  const send = relaySender(stack, KEY)
  async function relay(zone, kind, id) {
    const { sentAt, body } = await send({ zone, kind, id })
    const parts = []
    for await (const chunk of body) parts.push(chunk)
    const answer = new Uint8Array(Buffer.concat(parts))
    const ms = performance.now() - sentAt
    // Two-octet TCP length, then the header: RCODE is the low four bits of its fourth octet.
    if (answer.length < 14 || (answer[5] & 0x0f) !== 0)
      throw new Error(`${kind} ${zone}: rcode ${answer[5] & 0x0f}`)
    return ms
  }

  // Warm the isolate (and the token check) before timing.
  for (let i = 0; i < 20; i++) await relay(names[i % N], i % 2 ? 'AXFR' : 'SOA', i)
  // As a secondary asks (SOA check, then the AXFR, zone after zone), then each kind on its own.
  const paired = { soa: [], axfr: [] }
  const alone = { soa: [], axfr: [] }
  for (let i = 0; i < K; i++) {
    const zone = names[i % N]
    paired.soa.push(await relay(zone, 'SOA', i))
    paired.axfr.push(await relay(zone, 'AXFR', i))
  }
  for (let i = 0; i < K; i++) alone.soa.push(await relay(names[i % N], 'SOA', i))
  for (let i = 0; i < K; i++) alone.axfr.push(await relay(names[i % N], 'AXFR', i))
  // As a secondary with many transfers in flight asks: C zones at a time, each SOA check then AXFR.
  const C = 16
  let next = 0
  const t0 = performance.now()
  await Promise.all(
    Array.from({ length: C }, async () => {
      for (let i = next++; i < K; i = next++) {
        await relay(names[i % N], 'SOA', i)
        await relay(names[i % N], 'AXFR', i)
      }
    })
  )
  const concurrentMs = (performance.now() - t0) / K
  // Every transferred zone has its completed transfer's time (written shortly after, in batches).
  await new Promise((r) => setTimeout(r, 1000))
  const { stamped } = await stack.db
    .prepare(
      `SELECT count(*) AS stamped FROM zone_transfers_outgoing
       WHERE last_transferred_on IS NOT NULL AND zone_id IN (SELECT id FROM zones WHERE account_id = ?1)`
    )
    .bind(account.id)
    .first()
  const f = (xs) => `median ${median(xs).toFixed(2)} ms, p90 ${p90(xs).toFixed(2)} ms`
  console.log(
    `relay-cost: ${N} zones, ${K} of each request; ${stamped} zones stamped as transferred`
  )
  console.log(`  paired SOA check: ${f(paired.soa)}`)
  console.log(`  paired AXFR:      ${f(paired.axfr)}`)
  console.log(`  SOA checks alone: ${f(alone.soa)}`)
  console.log(`  AXFRs alone:      ${f(alone.axfr)}`)
  console.log(
    `  ${C} zones in flight: ${concurrentMs.toFixed(2)} ms of wall time per zone (SOA + AXFR)`
  )
} finally {
  await stack.close()
}
