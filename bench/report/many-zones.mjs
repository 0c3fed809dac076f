/** @module BENCHMARKS.md: the "many zones" section (bench/many-zones.mjs). */
import { fmtMs } from '../lib/stats.mjs'
import { n0 } from './format.mjs'

const med = (s) => (s ? fmtMs(s.median) : '–')

export function renderManyZones(r, md, targets) {
  const shards = r.shards ?? 1
  md.push(`## Many zones over ${shards === 1 ? 'one D1 database' : `${shards} D1 shards`}`, '')
  md.push(
    `${n0(r.total)} zones with 1–20 records each, on a stack of their own with ${shards === 1 ? 'one D1 database' : `${shards} D1 shards (one account placed on each by the API; every zone in the directory on shard 0)`}. ${n0(r.sample)} of them are created through the API (\`POST /zones\`, then one record batch each, 8 at a time, spread over the accounts) and built into KV by their builders; the other ${n0(r.seed.zones)} are written straight into their account's shard with the rows the API writes for them (zone row, records, change-log entries, directory row), in chunks of 5,000 zones, and marked built: they load D1 (the list, the sweep, bytes per record) but are not in KV. DoH and start-up figures are therefore over the ${n0(r.sample)} API-created zones.`,
    ''
  )
  const c = r.creation
  md.push('| figure | value |', '|---|---:|')
  md.push(
    `| zone creation through the API (zone + its records, 8 in flight) | ${c.zonesPerSecond.toFixed(1)} zones/s (${n0(c.records)} records in ${c.seconds.toFixed(0)} s) |`,
    `| \`POST /zones\` latency under that load, median (min–max) | ${fmtMs(c.createMs.median)} (${fmtMs(c.createMs.min)}–${fmtMs(c.createMs.max)}) |`,
    `| zones written straight into D1 | ${n0(r.seed.zones)} zones, ${n0(r.seed.records)} records in ${r.seed.seconds.toFixed(0)} s |`,
    `| D1 bytes per record (growth of every shard ÷ records, zone rows, change log and directory included) | ${r.d1BytesPerRecord.toFixed(0)} B |`,
    `| D1 bytes per zone (same growth ÷ zones; ${(r.seed.records / r.seed.zones).toFixed(1)} records each on average) | ${n0(Math.round(r.d1BytesPerZone))} B |`,
    `| KV keys per zone (API-created zones, ${(c.records / c.zones).toFixed(1)} records each on average) | ${r.kvKeysPerZone.toFixed(1)} |`,
    `| KV bytes per record (all values of those zones ÷ their records: buckets, heads, zone keys) | ${r.kvBytesPerRecord?.toFixed(0) ?? '–'} B |`,
    `| start to first answer (fresh DoH runtime on a copy of this KV) | ${fmtMs(r.startup.answerMs)} |`,
    ''
  )
  md.push(
    '`GET /zones` (50 per page, medians of repeated requests): the first page carries the total count; the middle page is asked for by `cursor` (keyset: an index seek) and, for contrast, by `page` (an OFFSET that steps over every earlier zone; the API serves offsets up to 10,000 zones, so at larger sizes the `page` column is the deepest page it allows and the cursor page the one after it).',
    ''
  )
  md.push(
    '| zones | first page (`page=1`) | middle page by cursor | middle page by `page` |',
    '|---:|---:|---:|---:|'
  )
  for (const l of r.list)
    md.push(
      `| ${n0(l.zones)} | ${med(l.first)} | ${med(l.cursor)} | ${med(l.offset)} (page ${n0(l.middlePage)}) |`
    )
  md.push('')
  const s = r.sweep
  md.push(
    `**Sweep** with ${n0(s.listed)} of ${n0(s.zones)} zones behind (changes committed without notifying their builders): one run notified ${n0(s.notified)} builders in ${fmtMs(s.sweepMs)} (including their first build steps, which share the runtime here). Its work list query${shards > 1 ? ` (on each of the ${shards} shards)` : ''} read ${n0(s.listQuery.rowsRead)} rows (${fmtMs(s.listQuery.ms)}); the scan of every zone it replaced reads ${n0(s.scanQuery.rowsRead)} rows (${fmtMs(s.scanQuery.ms)}) at this size.`,
    ''
  )
  const d = r.doh
  md.push(
    `**DoH over ${n0(d.zones)} zones**, \`www.z<i>\` with zones drawn Zipf (s = 1): ${n0(Math.round(d.sat.rps.median))} queries/s at saturation, ${d.ratio.toFixed(2)} of the empty worker fed the same requests (${n0(Math.round(d.empty.rps.median))} req/s); p50 ${fmtMs(d.fixed.p50.median)} / p99 ${fmtMs(d.fixed.p99.median)} at 1,000 q/s; ${d.kv.kvCallsPerLookup?.toFixed(3)} KV calls per query, ${d.kv.revalidationsPerSecond?.toFixed(0)} zone revalidations/s (each zone in use is confirmed against KV once per revalidation interval, so this count grows with the zones queried), ${n0(d.kv.zones)} zones held by the isolate after the run.`,
    ''
  )
  // Flatness is judged from 1,000 zones (or the smallest size measured) to the largest.
  const small = r.list.find((l) => l.zones === 1000) ?? r.list[0]
  const large = r.list.at(-1)
  if (small?.cursor && large?.cursor)
    targets.push([
      'Many zones',
      `\`GET /zones\` page latency flat from ${n0(small.zones)} to ${n0(large.zones)} zones (cursor page ≤ 1.5× + 5 ms)`,
      `${fmtMs(small.cursor.median)} → ${fmtMs(large.cursor.median)}`,
      large.cursor.median <= 1.5 * small.cursor.median + 5 ? '**met**' : '**not met**',
    ])
  targets.push([
    'Many zones',
    `sweep work proportional to the zones behind (${n0(s.listed)} of ${n0(s.zones)})`,
    `${n0(s.listQuery.rowsRead)} rows read`,
    s.listQuery.rowsRead <= 10 * s.listed + 10 ? '**met**' : '**not met**',
  ])
}
