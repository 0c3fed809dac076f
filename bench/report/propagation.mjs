/** @module BENCHMARKS.md: propagation and full-build tables, latency distribution chart. */
import { lineChart } from '../lib/svg.mjs'
import { fmtMs } from '../lib/stats.mjs'
import { n0, range, verdict } from './format.mjs'

const ONE_M = 1_000_000
/** One-record change series: key in the results, label. */
const SERIES = [
  ['one', 'non-apex'],
  ['apex', 'apex'],
]
const long = (ms) => (ms >= 120_000 ? `${(ms / 60_000).toFixed(1)} min` : fmtMs(ms))

/** Percentile curve (x = percentile, y = ms) of a sample list. */
function curve(samples) {
  const s = [...samples].sort((a, b) => a - b)
  return Array.from({ length: 51 }, (_, i) => [
    i * 2,
    s[Math.min(s.length - 1, Math.round((i / 50) * (s.length - 1)))],
  ])
}

function fullBuildFigures(p) {
  const large = p.zones.large
  const full = large.full
  const pass = large.one.pass.median
  // The layout writes a bucket count of keys that grows in steps, not per name: scale by records.
  const perRecord = full.builder.median / large.size
  return {
    large,
    ms: full.builder.median,
    ratio: full.builder.median / pass,
    keysPerSecond: full.keysPerSecond,
    extrapolated1M: large.size >= ONE_M ? null : perRecord * ONE_M,
  }
}

export function renderPropagation(p, md, charts, targets) {
  md.push('## Propagation: commit → visible through DoH', '')
  md.push(
    `Every change goes API → D1 (one transaction with its change-log row) → ZoneBuilder Durable Object → Workers KV → DoH worker. **Commit → visible** runs from the commit (the API's clock when D1 acknowledged the write's transaction, returned in the \`x-edgedns-committed-at\` header; the runtime and the load process read the same machine clock) until a DoH query (JSON API on the DoH worker's own socket, polled back to back from the moment the request is sent, since DNS clients do not wait for the API's response) returns the new state (the instant its answer arrives); **submit → visible** from sending the request. Each series starts once the builder of every bench zone is quiet (buckets flushed, old bucket counts retired): locally that background work shares workerd's one thread with the change being measured. One-record changes, each once the previous one is visible and its builder's step has ended (its head's slot written, its bucket flushed), so each change meets a quiet builder; changes that arrive while earlier ones are still being built are the paced run's below: **non-apex** alternates a create of an A record at a fresh name (visible = the address answers) and a delete of it (visible = NXDOMAIN); **apex** alternates a create of a TXT record at the zone apex with a unique content (visible = the apex TXT answer includes it) and a delete of it (visible = it no longer does). Builder pacing \`KV_KEY_WRITE_INTERVAL_MS\` = ${p.kvKeyWriteIntervalMs} (the pipeline's own cost; production KV allows one write per key per second, which only delays a second write to the *same* key within a second). Local KV is Miniflare's simulator (SQLite + one file per value); production KV adds its own replication delay (up to about 60 s), which no local figure includes.`,
    ''
  )
  md.push(
    '| zone | records | change | commit → visible, p50 (min–max) | p99 | response received → visible, p50 | p99 | submit → visible, p50 | per-record pass (builder) | API handler |',
    '|---|---:|---|---:|---:|---:|---:|---:|---:|---:|'
  )
  for (const z of Object.values(p.zones)) {
    for (const [key, label] of SERIES) {
      const o = z[key]
      if (!o) continue
      md.push(
        `| ${z.name} | ${n0(z.size)} | ${label} | ${range(o.commit)} | ${fmtMs(o.commit.p99)} | ${o.ack ? fmtMs(o.ack.median) : '–'} | ${o.ack ? fmtMs(o.ack.p99) : '–'} | ${range(o.submit)} | ${range(o.pass)} | ${range(o.server)} |`
      )
    }
  }
  md.push(
    '',
    `${p.zones.small.one.commit.n} changes per zone and kind after warm-up; min–max are over single changes. The commit instant is read in the API right after the D1 batch resolves: the Workers clock moves only at I/O, so it is the moment the commit was acknowledged, in whole milliseconds (it can trail D1's own commit by the return hop, under a millisecond locally). *Response received* is what a client observes; in workerd local the response trails the commit because the builder pass the change triggers shares the runtime's thread, so a change is often already visible when its response arrives (the figure from it is then small or negative). Targets are judged from the commit.`,
    ''
  )
  const pc = p.paced
  if (pc) {
    md.push(`### Paced: one-record changes ${n0(pc.intervalMs)} ms apart, production pacing`, '')
    md.push(
      `A second stack with \`KV_KEY_WRITE_INTERVAL_MS\` = ${n0(pc.kvKeyWriteIntervalMs)} (the builder writes any one KV key at most once a second, as production KV allows) and a ${n0(pc.size)}-record zone of its own seeded like the small zone. A change starts every ${n0(pc.intervalMs)} ms (start to start) whether or not the earlier ones are visible yet, each with its own DoH poller; even changes create, odd ones delete the oldest record whose create was already seen (non-apex: A records at fresh names; apex: TXT records with unique contents, as above). The same commit instants as above.`,
      ''
    )
    md.push(
      '| change | changes | commit → visible, p50 (min–max) | p99 | response received → visible, p50 | p99 | submit → visible, p50 | API handler | schedule late by (max) |',
      '|---|---:|---:|---:|---:|---:|---:|---:|---:|'
    )
    for (const [key, label] of SERIES) {
      const o = pc[key]
      if (!o) continue
      md.push(
        `| ${label} | ${n0(o.commit.n)} | ${range(o.commit)} | ${fmtMs(o.commit.p99)} | ${fmtMs(o.ack.median)} | ${fmtMs(o.ack.p99)} | ${range(o.submit)} | ${range(o.server)} | ${fmtMs(o.maxLateMs)} |`
      )
    }
    md.push('')
  }
  md.push(`### ${n0(10_000)}-change batch fully visible`, '')
  md.push(
    "Creates of 10,000 new names in one batch, three runs per zone; **visible** = the builder reports the change sequence built (propagation endpoint polled every 5 ms), then 20 names spread over the batch are checked through DoH (all answered in every run). The API's response arrives later than the handler ends here: workerd runs the API worker, the builder DO and the KV/D1 simulators on one thread, so the build competes with sending the response.",
    ''
  )
  md.push(
    '| zone | records | commit → visible | submit → visible | API handler | response received |',
    '|---|---:|---:|---:|---:|---:|'
  )
  for (const z of Object.values(p.zones)) {
    if (!z.bulk) continue
    md.push(
      `| ${z.name} | ${n0(z.size)} | ${range(z.bulk.commit)} | ${range(z.bulk.submit)} | ${range(z.bulk.server)} | ${range(z.bulk.response)} |`
    )
  }
  md.push('', '### Full build', '')
  md.push(
    "`POST …/propagation/rebuild`: the builder rewrites every key of the zone (pages of 200 names, ≤ 1,000 KV operations per invocation, continued by alarms) and prunes stale keys. **Builder** = the DO's own timing (`status().lastFullBuild.ms`); **wall** = request to built.",
    ''
  )
  md.push(
    '| zone | records | keys written | full build (builder) | wall | keys/s | full ÷ per-record pass |',
    '|---|---:|---:|---:|---:|---:|---:|'
  )
  for (const z of Object.values(p.zones)) {
    md.push(
      `| ${z.name} | ${n0(z.size)} | ${n0(z.full.keysWritten)} | ${range(z.full.builder, fmtMs)} | ${range(z.full.wall, fmtMs)} | ${n0(z.full.keysPerSecond)} | ${n0(z.full.builder.median / z.one.pass.median)}× |`
    )
  }
  const f = fullBuildFigures(p)
  if (f.extrapolated1M !== null) {
    md.push(
      '',
      `**Extrapolation, not a measurement:** at the measured time per record (${n0(f.large.size)}-record zone), a full build of 1,000,000 records would take about **${long(f.extrapolated1M)}** on this machine. The run uses ${n0(f.large.size)} records (a quick run or \`BENCH_LARGE\`); a full \`pnpm bench\` measures 1,000,000.`
    )
  }
  md.push('')
  charts['propagation-latency.svg'] = lineChart({
    title: 'One-record change: commit → visible through DoH',
    xLabel: 'percentile of changes',
    yLabel: 'milliseconds',
    logY: true,
    series: [
      ...Object.values(p.zones).flatMap((z) =>
        SERIES.filter(([key]) => z[key]).map(([key, label]) => ({
          name: `${n0(z.size)} records, ${label}`,
          dashed: key === 'apex',
          points: curve(z[key].commit.samples),
        }))
      ),
      ...(pc
        ? SERIES.filter(([key]) => pc[key]).map(([key, label]) => ({
            name: `paced ${n0(pc.intervalMs)} ms, ${label}`,
            dashed: key === 'apex',
            points: curve(pc[key].commit.samples),
          }))
        : []),
    ],
  })
  md.push('![commit → visible distribution](bench/charts/propagation-latency.svg)', '')

  for (const [key, label] of SERIES) {
    const s = p.zones.small[key]?.commit
    const l = p.zones.large[key]?.commit
    if (!s || !l) continue
    const sa = p.zones.small[key].ack
    const la = p.zones.large[key].ack
    const both = (q, limit) => {
      const measured = `${fmtMs(s[q])} / ${fmtMs(l[q])}${sa && la ? ` (${fmtMs(sa[q])} / ${fmtMs(la[q])} from the response)` : ''}`
      return [measured, verdict(s[q] <= limit && l[q] <= limit)]
    }
    targets.push([
      'Propagation',
      `one-record ${label} change commit → visible p50 ≤ 10 ms, pacing off (1,000 / large zone)`,
      ...both('median', 10),
    ])
    targets.push([
      'Propagation',
      `one-record ${label} change commit → visible p99 ≤ 50 ms, pacing off (1,000 / large zone)`,
      ...both('p99', 50),
    ])
    targets.push([
      'Propagation',
      `${label}: does not grow with zone size (large p50 ≤ 1.5 × small p50 + 1 ms)`,
      `${n0(p.zones.small.size)}: ${fmtMs(s.median)}, ${n0(p.zones.large.size)}: ${fmtMs(l.median)}`,
      verdict(l.median <= 1.5 * s.median + 1),
    ])
  }
  if (pc) {
    for (const [key, label] of SERIES) {
      const o = pc[key]
      if (!o) continue
      const from = `(${fmtMs(o.ack.median)} / ${fmtMs(o.ack.p99)} from the response)`
      targets.push([
        'Propagation',
        `one-record ${label} changes ${n0(pc.intervalMs)} ms apart, pacing on: commit → visible p50 ≤ 50 ms, p99 ≤ 1.1 s`,
        `p50 ${fmtMs(o.commit.median)}, p99 ${fmtMs(o.commit.p99)} ${from}`,
        verdict(o.commit.median <= 50 && o.commit.p99 <= 1100),
      ])
    }
  }
  const b = p.zones.large.bulk
  if (b)
    targets.push([
      'Propagation',
      '10,000-change batch fully visible ≤ 1 s after commit',
      `${fmtMs(b.commit.median)} (${n0(p.zones.large.size)}-record zone)`,
      verdict(b.commit.median <= 1000),
    ])
  targets.push([
    'Propagation',
    'full build of 1,000,000 records ≤ 30 s (Cloudflare: 34 s)',
    f.extrapolated1M === null
      ? fmtMs(f.ms)
      : `${long(f.ms)} for ${n0(f.large.size)}; ≈ ${long(f.extrapolated1M)} for 1M (extrapolated)`,
    verdict((f.extrapolated1M ?? f.ms) <= 30_000),
  ])
  targets.push([
    'Propagation',
    'full build ÷ per-record build (Cloudflare: 4,250×)',
    `${n0(f.ratio)}× (${n0(f.large.size)} records)`,
    '(reported)',
  ])
}
