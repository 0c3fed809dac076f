/**
 * @module Many small hosted zones, seeded fast: zone n is `z<n>.<parent>` (id `b` + n in 31 hex
 * digits, as bench/lib/d1-zone-seed.mjs `seedInD1` writes it into D1) holding `recordsOf(n)` A records
 * `www`, `r1`, `r2`, … Its KV image is `zoneImage` of @edgedns/kv-layout (what a full build writes:
 * zone key, buckets, head 1; loaded by Node's type stripping), with one bucket per zone, so that a zone costs a handful of KV values and 100,000 zones can be
 * written in a bench section (the builder picks 16 buckets for a zone this small; a warm isolate
 * reads each bucket once either way).
 */
import { zoneImage } from '../../packages/kv-layout/src/index.ts'

/** Most records a zone holds (zone n holds 1 + (n · 7919 mod this)). */
export const MAX_RECORDS = 8

const recordsOf = (n, maxRecords = MAX_RECORDS) => 1 + ((n * 7919) % maxRecords)
const zoneNameOf = (n, parent) => `z${n}.${parent}`
const zoneIdOf = (n) => `b${n.toString(16).padStart(31, '0')}`
const labelOf = (j) => (j === 0 ? 'www' : `r${j}`)
/** The address of record j of zone n (as `seedInD1` writes it). */
const addressOf = (n, j) => `10.${(n >> 8) & 255}.${n & 255}.${j}`

/** The KV entries of zone n: [key, value] pairs. */
export function zoneEntries(n, parent, maxRecords = MAX_RECORDS) {
  const name = zoneNameOf(n, parent)
  const meta = {
    v: 1,
    id: zoneIdOf(n),
    name,
    serial: 1,
    soa: {
      mname: 'ns1.edgedns.dev',
      rname: 'dns.edgedns.dev',
      refresh: 7200,
      retry: 3600,
      expire: 1209600,
      minimum: 300,
      ttl: 3600,
    },
    ns: ['ns1.edgedns.dev', 'ns2.edgedns.dev'],
    proxy: { ipv4: [], ipv6: [] },
    apex: { v: 1, sets: {} },
  }
  const nodes = Array.from({ length: recordsOf(n, maxRecords) }, (_, j) => [
    `${labelOf(j)}.${name}`,
    { v: 1, sets: { A: { ttl: 300, rdata: [addressOf(n, j)] } } },
  ])
  return [...zoneImage(meta, nodes, { buckets: 1, versioned: true })]
}

/** Every KV entry of zones `from`…`to − 1`, lazily. */
export function* zonesEntries(from, to, parent, maxRecords = MAX_RECORDS) {
  for (let n = from; n < to; n++) yield* zoneEntries(n, parent, maxRecords)
}
