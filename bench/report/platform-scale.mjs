/**
 * @module BENCHMARKS.md: DoH over many zones and names outside every zone (sections `zones-10k`,
 * `zones-100k`) and commit → visible under the production KV model (`production-model`), with
 * their rows in the targets table (issue "Freshness at platform scale").
 */
import { fmtMs } from '../lib/stats.mjs'
import { n0, verdict } from './format.mjs'

const f3 = (x) => (Number.isFinite(x) ? x.toFixed(3) : '–')
const f2 = (x) => (Number.isFinite(x) ? x.toFixed(2) : '–')
const q = (x) => n0(Math.round(x))

/** KV + feed calls per query, with the feed's share when counted. */
const callsLine = (kv) =>
  `${f3(kv.callsPerQuery)} (KV ${f3(kv.kvCallsPerLookup)}, feed ${kv.feedCallsPerQuery === null ? 'not counted' : f3(kv.feedCallsPerQuery)})`

function row(md, label, m) {
  md.push(
    `| ${label} | ${q(m.sat.rps.median)} | ${q(m.empty.rps.median)} | ${f2(m.ratio)} | ${callsLine(m.kv)} | ${f3(m.kv.kvKeysPerLookup)} | ${n0(m.kv.revalidationsPerSecond)} | ${n0(m.kv.zones)} |`
  )
}

export function renderZonesAtScale(z10, z100, md, targets) {
  if (!z10 && !z100) return
  md.push('## DoH over many zones', '')
  md.push(
    'Own stacks with the **deployed read-path settings** (no `REVALIDATE_MS`, `REFRESH_AHEAD_MS` or `BUCKET_MAX_AGE_MS` override; `CACHE_MB` 64) and local KV. Zones `z<n>.hosted.bench` with 1–8 A records each, written before the runtime starts: their KV images (`zoneImage`, one bucket per zone) straight into the persisted store, their D1 rows by SQL, then one run of the cron’s maintenance (which reconciles the zone feed with D1 where the feed exists). Queries: zones drawn Zipf (s = 1), names within each zone drawn Zipf, warm (a pass asking each zone in turn, until every zone was asked, at most 60 s for 10,000 zones and 400 s for 100,000: a zone’s first read takes its zone key and head slots, a few hundred zones a second locally; then 3 s runs of the mix until one reads fewer than 0.01 KV keys per query, at most 30 s); saturation, 32 connections, beside the empty worker fed the same requests. Outside names: 2–5 random labels (the last one too), never repeated. Counters from the DoH worker’s `/stats` around the measured runs; calls per query = (KV calls + feed calls) ÷ queries.',
    ''
  )
  md.push(
    '| mix | DoH q/s | empty req/s | ratio | calls per query | KV keys per query | revalidations/s | zones held after |',
    '|---|---:|---:|---:|---|---:|---:|---:|'
  )
  if (z10?.zipf) row(md, `Zipf over ${n0(z10.seed.zones)} zones`, z10.zipf)
  if (z10?.outside) row(md, 'names outside every zone', z10.outside)
  if (z100?.zipf) row(md, `Zipf over ${n0(z100.seed.zones)} zones`, z100.zipf)
  md.push('')
  for (const z of [z10, z100])
    if (z?.pass)
      md.push(
        `Before the ${n0(z.seed.zones)}-zone mix, the pass asked ${n0(z.pass.queries)} queries in ${z.pass.seconds.toFixed(0)} s and left ${n0(z.pass.zones)} zones held (a zone the isolate does not hold costs a cold read; the isolate keeps zones within a part of \`CACHE_MB\`).`,
        ''
      )
  if (z10?.zipf) {
    const m = z10.zipf
    targets.push([
      'Many zones',
      `DoH over ${n0(z10.seed.zones)} zones (Zipf zones and names), warm: ≥ 0.5 of the empty worker`,
      `${f2(m.ratio)} (${q(m.sat.rps.median)} q/s)`,
      verdict(m.ratio >= 0.5),
    ])
    targets.push([
      'Many zones',
      `same: KV + feed calls per query ≤ 0.01`,
      callsLine(m.kv),
      verdict(m.kv.callsPerQuery <= 0.01),
    ])
  }
  if (z10?.zipf && z100?.zipf)
    targets.push([
      'Many zones',
      `same mix over ${n0(z100.seed.zones)} zones: throughput within 1.5× of ${n0(z10.seed.zones)} zones`,
      `${q(z100.zipf.sat.rps.median)} vs ${q(z10.zipf.sat.rps.median)} q/s (${n0(z100.zipf.kv.zones)} zones held)`,
      verdict(1.5 * z100.zipf.sat.rps.median >= z10.zipf.sat.rps.median),
    ])
  if (z10?.outside) {
    const o = z10.outside
    targets.push([
      'Many zones',
      'random names outside every hosted zone: KV keys read per query ≤ 0.01',
      f3(o.kv.kvKeysPerLookup),
      verdict(o.kv.kvKeysPerLookup <= 0.01),
    ])
    targets.push([
      'Many zones',
      'random names outside every hosted zone: ≥ 0.5 of the empty worker',
      `${f2(o.ratio)} (${q(o.sat.rps.median)} q/s)`,
      verdict(o.ratio >= 0.5),
    ])
  }
}

const seconds = (ms) => (Number.isFinite(ms) ? `${(ms / 1000).toFixed(2)} s` : '–')

export function renderProductionModel(p, md, targets) {
  if (!p) return
  md.push('## Commit → visible under the production KV model', '')
  md.push(
    `Own stack whose workers read KV through \`KV_MODEL=production\` (docs/limits.md: each DoH isolate is one KV location with its own edge cache, keeping a value or a miss for the read’s \`cacheTtl\`, at least 30 s; writes reach the store at once), with the deployed settings: no read-path override and builder pacing \`KV_KEY_WRITE_INTERVAL_MS=${p.kvKeyWriteIntervalMs}\`. A ${n0(p.size)}-record zone, the DoH isolate warmed on its names first; one-record changes ${n0(p.intervalMs)} ms apart as in the paced propagation run, each polled through DoH every ${p.pollEveryMs} ms from its submit; a change not visible ${p.censorMs / 1000} s after its submit counts as ${p.censorMs / 1000} s (censored). The model leaves out propagation between regions (up to about 60 s in production) and early eviction.`,
    ''
  )
  md.push('| change | p50 | p99 | censored |', '|---|---:|---:|---:|')
  for (const [key, label] of [
    ['one', 'one record, non-apex'],
    ['apex', 'one record, apex'],
  ]) {
    const o = p[key]
    if (o)
      md.push(
        `| ${label} | ${seconds(o.commit.median)} | ${seconds(o.commit.p99)} | ${o.censored} of ${o.commit.n} |`
      )
  }
  if (p.bulk)
    md.push(
      `| ${n0(p.bulk.n)}-change batch, every probed name | ${p.bulk.visible ? seconds(p.bulk.commitMs) : `not within ${seconds(p.bulk.commitMs)} (${p.bulk.pending} of 20 probes)`} | | |`
    )
  md.push('')
  for (const [key, label] of [
    ['one', 'non-apex'],
    ['apex', 'apex'],
  ]) {
    const o = p[key]
    if (!o) continue
    const cens = o.censored ? ` (${o.censored} censored at ${p.censorMs / 1000} s)` : ''
    targets.push([
      'Freshness (production model)',
      `one-record ${label} changes ${n0(p.intervalMs)} ms apart, deployed settings: commit → visible p50 ≤ 2 s, p99 ≤ 3 s`,
      `p50 ${fmtMs(o.commit.median)}, p99 ${fmtMs(o.commit.p99)}${cens}`,
      verdict(o.commit.median <= 2000 && o.commit.p99 <= 3000 && o.censored === 0),
    ])
  }
  if (p.bulk)
    targets.push([
      'Freshness (production model)',
      `${n0(p.bulk.n)}-change batch fully visible ≤ 5 s after commit`,
      p.bulk.visible ? fmtMs(p.bulk.commitMs) : `not within ${fmtMs(p.bulk.commitMs)}`,
      verdict(p.bulk.visible && p.bulk.commitMs <= 5000),
    ])
}
