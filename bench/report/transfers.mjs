/**
 * @module BENCHMARKS.md: zone transfers beside BIND → BIND (AXFR out, change → secondary, AXFR in,
 * change → our secondary zone).
 */
import { fmtMs } from '../lib/stats.mjs'
import { n0, range, verdict } from './format.mjs'

const sec = (ms) => (Number.isFinite(ms) ? fmtMs(ms) : '–')

/**
 * The run's named rate settings, for the method text: both rows' secondaries and the BIND
 * primary (empty for a run that did not record them).
 */
function namedSettings(o) {
  if (!o) return ''
  const list = (opts) => opts.map((x) => `\`${x}\``).join(' ')
  return ` Every BIND secondary runs with ${list(o.secondary)} and the BIND primary with ${list(o.primary)}: at named's default of 20 a second, its rate limiter sends a SOA check (or a NOTIFY) asked within half a second of the previous one only on its next half-second tick, which would add up to half a second to about every other change on both rows (operator advice in docs/zone-transfers.md).`
}

export function renderTransfers(t, md, targets) {
  const bindLoad = t.bindToBind?.wall.median
  const oursLoad = t.oursToBind?.wall.median
  md.push('## Zone transfers beside BIND → BIND', '')
  md.push(
    `One zone of ${n0(t.records)} A records plus a wildcard, ours (\`xfr-out.bench.example\`, seeded through the API) and BIND 9's (\`xfr-in.bench.example\`, the same records in a zone file), every transfer signed with one TSIG key (hmac-sha256), everything on loopback in the same run. A BIND secondary is started fresh for each load (${t.reps} per row after one warm-up load each, not counted, the two rows' loads in turn so both see the machine in the same state, each once the other row's secondary has written its zone file and our runtime is idle) and timed from its start until its log says "Transfer completed" (named's own transfer time and its CPU time beside it). Primary and secondary are different hosts in practice, so here each side has a core of its own: every secondary runs on the first core, and the primary side (BIND's primary; our runtime and the DNS front) on the second. Ours reaches the secondary through the local DNS front's transfer relay, which passes the transfer to the API worker (records read from D1 in keyset pages and packed into messages as they stream). BIND primary load of the zone file: ${sec(t.bindPrimaryLoadMs)}.`,
    ''
  )
  if (t.note) md.push(`Note on this run: ${t.note}`, '')
  md.push(
    "| transfer | records | start → transfer completed, median (min–max) | named's transfer time | named's CPU | messages | warm-up load (not counted; ours: its first transfer and the version's first) |",
    '|---|---:|---:|---:|---:|---:|---:|'
  )
  for (const [label, r] of [
    ['BIND primary → BIND secondary (AXFR)', t.bindToBind],
    ['ours → BIND secondary (AXFR)', t.oursToBind],
  ])
    if (r)
      md.push(
        `| ${label} | ${n0(r.records)} | ${range(r.wall)} | ${range(r.named)} | ${r.namedCpu ? range(r.namedCpu) : '–'} | ${n0(r.messages)} | ${sec(r.first?.ms)} |`
      )
  md.push('')
  md.push(
    "What bounds it: both rows end when the BIND secondary has taken in every record, so named's own work on the transfer (its CPU time, about equal for the two streams) is the floor of both. BIND's primary answers from the zone it holds in memory. Ours answers the first AXFR of a zone version from D1 (keyset pages read and packed into messages as they stream: about 2.3 s of the workerd thread's CPU for this zone, beside the front's 0.5 s on the same core), which our warm-up load in the last column includes, with the runtime's and the front's first transfer (the relay alone reads and packs this zone in about 2.2 s of a later version's first AXFR); it keeps the packed messages (`TRANSFER_CACHE_MB`), so the counted loads, as any later AXFR of the same version, are the messages re-signed under each request's ID and TSIG (figures in docs/decisions/transfer-costs.md).",
    ''
  )
  md.push(
    `**One change → answered by the BIND secondary**: ${t.changes} one-record creates, each ${t.changeGapMs} ms after the previous one was answered; the secondary polled over UDP back to back. Ours: a record created through the API, timed from its commit (the API's clock when D1 acknowledged it); the builder sends NOTIFY, named asks the SOA and pulls an IXFR through the front. BIND: \`nsupdate\` on the BIND primary (\`notify-delay 0\`), timed from its acknowledgement (the \`nsupdate\` process's exit, so its commit is placed late by up to the process's exit time). The phases come from the secondary's log (millisecond timestamps): NOTIFY received, then its SOA query and the IXFR until "Transfer completed", then the first UDP answer with the change.${namedSettings(t.namedOptions)}`,
    ''
  )
  md.push(
    '| path | p50 | p99 | min–max | commit → NOTIFY received (median) | → IXFR completed | → answered |',
    '|---|---:|---:|---:|---:|---:|---:|'
  )
  for (const [label, r] of [
    ['ours → BIND secondary (NOTIFY + IXFR)', t.changeOurs],
    ['BIND primary → BIND secondary (NOTIFY + IXFR)', t.changeBind],
  ])
    if (r)
      md.push(
        `| ${label} | ${fmtMs(r.commit.median)} | ${fmtMs(r.commit.p99)} | ${fmtMs(r.commit.min)}–${fmtMs(r.commit.max)} | ${fmtMs(r.phases?.notify.median)} | ${fmtMs(r.phases?.transfer.median)} | ${fmtMs(r.phases?.answer.median)} |`
      )
  md.push('')
  const a = t.axfrIn
  md.push(
    `**AXFR in**: one of our secondary zones of \`xfr-in.bench.example\` with the BIND primary as its primary; timed from the write of its incoming settings (the first check starts at once) until the transfer is committed (the settings show the primary's serial) and until DoH answers the zone's last record. ${a?.error ? `Failed in this run: ${a.error}` : `Committed ${sec(a?.committedMs)}, answering over DoH ${sec(a?.answeredMs)}.`} What bounds it locally: one workerd thread runs the secondary zone's Durable Object, D1, the builder and the KV simulator, so the phases (receive and stage, the commit in one D1 batch, the full build's D1 → mirror read and its KV buckets) add up, and each of the last three alone takes longer than BIND's whole load of the zone (phases and the alternatives measured in docs/decisions/transfer-costs.md).`,
    ''
  )
  const c = t.changeIn
  if (c)
    md.push(
      `**One change on the BIND primary → answered by our secondary zone**: after the AXFR in, ${c.error ? `failed in this run: ${c.error}` : `${n0(c.changes)} one-record creates by \`nsupdate\` on the BIND primary, each ${t.changeInGapMs ?? t.changeGapMs} ms after the previous one was answered (our secondary zone starts the checks NOTIFYs ask for at least 5 s apart), timed from the primary's acknowledgement until our DoH answers the new record (polled every 5 ms): the primary's NOTIFY through the DNS front, our SOA check and IXFR, its commit (a change-log row a record) and the builder's per-record pass over the names it touched, in a zone of ${n0(t.records)} records: ${fmtMs(c.seen.median)} p50, ${fmtMs(c.seen.p99)} p99 (${fmtMs(c.seen.min)}–${fmtMs(c.seen.max)}).`}`,
      ''
    )
  if (Number.isFinite(oursLoad) && Number.isFinite(bindLoad))
    targets.push([
      'Transfers',
      `AXFR out of the ${n0(t.records)}-record zone to a BIND secondary ≤ BIND → BIND`,
      `${fmtMs(oursLoad)} (BIND → BIND ${fmtMs(bindLoad)}); ours answered from its packed messages, the warm-up (the version's first, read from D1) ${sec(t.oursToBind?.first?.ms)}`,
      verdict(oursLoad <= bindLoad),
    ])
  if (t.changeOurs)
    targets.push([
      'Transfers',
      'one change → answered by the BIND secondary (NOTIFY + IXFR), p50 ≤ 100 ms',
      `${fmtMs(t.changeOurs.commit.median)} p50, ${fmtMs(t.changeOurs.commit.p99)} p99 (BIND → BIND ${t.changeBind ? fmtMs(t.changeBind.commit.median) : '–'} p50)`,
      verdict(t.changeOurs.commit.median <= 100),
    ])
  if (c && !c.error)
    targets.push([
      'Transfers',
      `one change on a BIND primary → answered over DoH by our secondary zone of ${n0(t.records)} records (NOTIFY + IXFR in)`,
      `${fmtMs(c.seen.median)} p50, ${fmtMs(c.seen.p99)} p99`,
      '(reported)',
    ])
  if (a && Number.isFinite(bindLoad))
    targets.push([
      'Transfers',
      `AXFR in of ${n0(t.records)} records from a BIND primary until DoH answers ≤ 2× BIND's secondary load`,
      a.error ? `failed: ${a.error}` : `${fmtMs(a.answeredMs)} (2× BIND ${fmtMs(2 * bindLoad)})`,
      verdict(!a.error && a.answeredMs <= 2 * bindLoad),
    ])
}
