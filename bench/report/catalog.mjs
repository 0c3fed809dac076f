/** @module BENCHMARKS.md: secondary cold start through the catalog zone, ours and BIND → BIND. */
import { ms2, n0, ratio } from './format.mjs'

const seconds = (ms) => (Number.isFinite(ms) ? `${(ms / 1000).toFixed(2)} s` : '–')

/** Growth from the smallest count to the largest: time per zone at the largest over the smallest. */
function growth(rows, key) {
  const first = rows[0]
  const last = rows[rows.length - 1]
  return first && last && first !== last ? last[key] / first[key] : null
}

export function renderCatalogColdStart(c, md, targets) {
  md.push('## Secondary cold start through the catalog zone', '')
  md.push(
    `A BIND 9.18 secondary that knows only an account's catalog zone (RFC 9432), started with an empty directory, until it has transferred every member zone: from us (the catalog and the zones through the DNS front and \`/dns_transfer\`, TSIG-signed), and from a BIND primary serving the same minimal zones (SOA, two NS, one A) and an equal catalog from files. Both secondaries run with \`${c.tuning}\` so that BIND's default throttles do not hide the primary. Time from starting the secondary to its last "Transfer completed".`,
    ''
  )
  md.push(
    '| zones | ours → BIND | per zone | BIND → BIND | per zone | ours / BIND |',
    '|---:|---:|---:|---:|---:|---:|'
  )
  for (const r of c.rows) {
    md.push(
      `| ${n0(r.zones)} | ${seconds(r.oursMs)} | ${ms2(r.oursPerZoneMs)} | ${seconds(r.bindMs)} | ${ms2(r.bindPerZoneMs)} | ${ratio(r.oursMs / r.bindMs)} |`
    )
  }
  const ours = growth(c.rows, 'oursPerZoneMs')
  const bind = growth(c.rows, 'bindPerZoneMs')
  md.push(
    '',
    `Time per zone at the largest count over the smallest: ours ${ratio(ours)}, BIND → BIND ${ratio(bind)} (1.00 is exactly linear growth; above it, each zone costs more as the account grows).`,
    '',
    'Each member costs the secondary two requests to us: its signed SOA check and the AXFR, each relayed by the DNS front as one `POST /dns_transfer` that looks the zone up, reads its outgoing settings, peers, keys and ACLs, and streams its records from D1. Here every such request runs on the one workerd thread that also runs D1, so the requests BIND sends in parallel are served one after another; deployed, they run in separate isolates.',
    ''
  )
  const last = c.rows[c.rows.length - 1]
  if (last)
    targets.push([
      'Transfers',
      'Secondary cold start of 10,000 minimal zones through the catalog, and whether time grows linearly',
      `${n0(last.zones)} zones: ours ${seconds(last.oursMs)}, BIND → BIND ${seconds(last.bindMs)}; time per zone largest/smallest count: ours ${ratio(ours)}, BIND ${ratio(bind)}`,
      last.zones >= 10_000
        ? ours !== null && ours <= 1.5
          ? 'linear'
          : 'grows faster than linear'
        : '(smaller run)',
    ])
}
