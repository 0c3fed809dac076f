/**
 * @module Zone transfers beside BIND → BIND in the same run (issue "Zone transfers"): a large
 * zone (BENCH_XFR_RECORDS, default the large zone's size) by AXFR out of our platform (through
 * the DNS front's transfer relay) to a BIND secondary against a BIND primary → BIND secondary of
 * the same records, the two rows' loads in turn; one-record changes until the BIND secondary answers them (our NOTIFY + IXFR
 * against nsupdate on the BIND primary); AXFR in of the BIND primary's zone into one of our
 * secondary zones until it answers over DoH; and one-record changes on the BIND primary until that
 * zone answers them (NOTIFY, IXFR in, a per-record build). Own stack; named on free loopback ports.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { availableParallelism, tmpdir } from 'node:os'
import path from 'node:path'
import { startDnsFront } from '../scripts/lib/dns-front.mjs'
import { aRecord } from './lib/api.mjs'
import { createBenchZone, largeSize } from './lib/fixtures.mjs'
import {
  PRIMARY_OPTIONS,
  SECONDARY_OPTIONS,
  XFR_KEY,
  nsupdateAdd,
  pollNamed,
  startPrimary,
  startSecondary,
  waitTransfer,
} from './lib/named-xfr.mjs'
import { cpuMsOf, pinTo, waitIdle, workerdPids } from './lib/procs.mjs'
import { pollDoh, waitQuiet } from './lib/propagation.mjs'
import { summarize } from './lib/stats.mjs'
import { enableOutgoing, makePeer as makeTransferPeer } from './lib/transfer-settings.mjs'
import { writeZoneFile } from './peers/zonefile.mjs'
import { freePort, sleep } from './peers/proc.mjs'

const OUT_ZONE = 'xfr-out.bench.example'
const IN_ZONE = 'xfr-in.bench.example'
/** One-record changes this far apart (from one visible to the next change). */
const CHANGE_GAP_MS = 300
/**
 * Changes on the BIND primary this far apart: our secondary zone starts the checks NOTIFYs ask
 * for at least 5 s apart (docs/zone-transfers.md), so each change meets a zone whose last
 * NOTIFY-driven check is older than that, as a change after a quiet spell does.
 */
const CHANGE_IN_GAP_MS = 5_100
/** Row 3 gives up after this (a transfer that failed is retried on the SOA's schedule, not at once). */
const AXFR_IN_TIMEOUT_MS = 20 * 60_000

/** Record count of the transferred zones: BENCH_XFR_RECORDS, else the large zone's size. */
export const transferSize = (quick) => Number(process.env.BENCH_XFR_RECORDS) || largeSize(quick)

/** The account's peer `name` at 127.0.0.1:`port` with the section's key (made once per key). */
const makePeer = (api, accountId, name, port, ixfr = false) =>
  makeTransferPeer(api, accountId, { name, port, ixfr, key: XFR_KEY })

/**
 * AXFR loads of each row, `reps` each after one warm-up load each, alternating between the rows
 * (the first row's first load, the second row's first, …) so both rows see the machine in the
 * same state: each load by a fresh BIND secondary at the row's `port`, timed from named's start
 * until its log says the transfer completed, started once the other rows' secondaries are idle
 * (each writes its zone file after its transfer). Returns, per row, its last secondary (still running) and the loads' summary.
 */
async function alternatingLoads({ dir, rows, reps, log, primaries }) {
  const state = rows.map(() => ({ named: null, runs: [] }))
  // Primary and secondary are different hosts in practice: here each side gets a core of its
  // own, the secondaries the first, every primary side (BIND's named; our runtime with the DNS
  // front, which runs in this process) the second. With one core, nothing is pinned.
  const cpus = availableParallelism()
  const primarySide = cpus > 1 ? [...primaries, ...workerdPids(), process.pid] : []
  const secondaryCpus = cpus > 1 ? '0' : undefined
  pinTo(primarySide, `1-${cpus - 1}`)
  try {
    await loadsInTurn({ dir, rows, reps, log, state, secondaryCpus })
  } finally {
    pinTo(primarySide, `0-${cpus - 1}`)
  }
  return state.map(({ named, runs, first }) => ({
    named,
    load: {
      // The warm-up load: ours is the first transfer of the zone's version (read from D1 and
      // packed); the counted ones reuse its packed messages.
      first,
      wall: summarize(runs.map((x) => x.ms)),
      named: summarize(runs.map((x) => x.namedSeconds * 1000)),
      namedCpu: summarize(runs.map((x) => x.namedCpuMs)),
      records: runs[0].records,
      messages: runs[0].messages,
    },
  }))
}

async function loadsInTurn({ dir, rows, reps, log, state, secondaryCpus }) {
  // Round −1 is a warm-up, not counted: named has its zone in memory before the first load, and
  // the first load of ours meets code paths of the runtime and the front not yet run.
  for (let r = -1; r < reps; r++)
    for (const [i, { zone, primaryPort, port, label }] of rows.entries()) {
      const row = state[i]
      await row.named?.stop()
      // The other rows' secondaries stay up (the change rows need them) but must not share the
      // cores with this load: a secondary writes the zone it just received to its file after the
      // transfer (a million records as text: seconds of CPU). Nor may our runtime be busy with
      // anything left from before.
      const others = state.filter((o) => o !== row && o.named).map((o) => o.named.proc.child.pid)
      const idleMs = await waitIdle([...others, ...workerdPids()])
      if (idleMs > 300)
        log(`transfers: waited ${(idleMs / 1000).toFixed(1)} s for the other processes to be idle`)
      row.named = await startSecondary({
        dir: path.join(dir, `${label}-${r}`),
        zone,
        primaryPort,
        port,
        cpus: secondaryCpus,
      })
      const done = await waitTransfer(row.named, zone)
      // named's CPU from its start to the transfer's end (its start-up is a few ms).
      const namedCpuMs = cpuMsOf(row.named.proc.child.pid)
      if (r < 0) {
        row.first = { ms: done.atMs - row.named.startedAt, namedCpuMs }
        log(
          `transfers: ${label} warm-up load in ${((done.atMs - row.named.startedAt) / 1000).toFixed(1)} s (not counted)`
        )
        continue
      }
      row.runs.push({
        ms: done.atMs - row.named.startedAt,
        namedSeconds: done.seconds,
        namedCpuMs,
        ...done,
      })
      log(
        `transfers: ${label} ${done.records.toLocaleString('en-US')} records in ${((done.atMs - row.named.startedAt) / 1000).toFixed(1)} s from named's start (named: ${done.seconds} s, ${done.messages} messages, CPU ${(namedCpuMs / 1000).toFixed(2)} s)`
      )
    }
}

/** Epoch ms of a named log line's timestamp ("27-Nov-2026 02:03:04.567", local time). */
const namedTime = (line) => Date.parse(line.slice(0, 24).replace(/-/g, ' '))

/**
 * Where one change's time went, from the secondary's log after `from`: commit → NOTIFY received,
 * NOTIFY → transfer completed, transfer completed → answered (all in ms; NaN when a line is absent).
 */
function phases(named, from, commitEpoch, seenEpoch) {
  const lines = named.log().slice(from).split('\n')
  const at = (re) => namedTime(lines.find((l) => re.test(l)) ?? '')
  const notified = at(/notify from /)
  const completed = at(/Transfer completed/)
  return {
    notify: notified - commitEpoch,
    transfer: completed - notified,
    answer: seenEpoch - completed,
  }
}

/**
 * One-record changes (`change(j)` resolves { tCommit (performance.now() scale), name, content })
 * until the secondary `named` answers each; p50/p99 from the commit and where the time went.
 */
async function changesSeen({ named, count, change, log, label }) {
  const commit = []
  const submit = []
  const parts = { notify: [], transfer: [], answer: [] }
  const toEpoch = Date.now() - performance.now()
  for (let j = 0; j < count; j++) {
    const from = named.log().length
    const t0 = performance.now()
    const c = await change(j)
    const seenAt = await pollNamed(named.port, c.name, c.content, 30_000)
    commit.push(seenAt - c.tCommit)
    submit.push(seenAt - t0)
    // named flushes its log line by line; a moment for the last lines to arrive.
    await sleep(CHANGE_GAP_MS)
    const p = phases(named, from, c.tCommit + toEpoch, seenAt + toEpoch)
    for (const k of Object.keys(parts)) if (Number.isFinite(p[k])) parts[k].push(p[k])
  }
  const out = {
    commit: summarize(commit),
    submit: summarize(submit),
    phases: Object.fromEntries(Object.entries(parts).map(([k, v]) => [k, summarize(v)])),
  }
  log(
    `transfers: ${label} change → BIND secondary answers ${out.commit.median.toFixed(0)} ms p50 / ${out.commit.p99.toFixed(0)} ms p99 after the commit (medians: commit → NOTIFY received ${out.phases.notify.median?.toFixed(0)} ms, → IXFR completed ${out.phases.transfer.median?.toFixed(0)} ms, → answered ${out.phases.answer.median?.toFixed(0)} ms)`
  )
  return out
}

export async function runTransfersBench({ api, stack, quick, log }) {
  const n = transferSize(quick)
  // Three loads a row by default, so the median is the middle one (of two it would be the slower).
  const reps = quick ? 1 : Number(process.env.BENCH_XFR_REPS) || 3
  const changes = quick ? 10 : 30
  const dir = mkdtempSync(path.join(tmpdir(), 'edgedns-bench-xfr-'))
  const [account] = (await api.call('GET', '/accounts')).result
  const stopping = []
  const out = {
    records: n,
    reps,
    changes,
    changeGapMs: CHANGE_GAP_MS,
    changeInGapMs: CHANGE_IN_GAP_MS,
    // named's options beyond the common ones: every secondary's, and the BIND primary's.
    namedOptions: { secondary: SECONDARY_OPTIONS, primary: PRIMARY_OPTIONS },
  }
  try {
    // The zone served by BIND (the same records as ours, under another name).
    const zoneFile = path.join(dir, `${IN_ZONE}.zone`)
    await writeZoneFile(zoneFile, IN_ZONE, n)
    const bindSecondaryPort = await freePort()
    // The DNS front: ours → BIND's transfers go out through it, and the BIND primary's NOTIFYs for
    // our secondary zone (row 4) come in through it.
    const front = await startDnsFront({
      target: stack.url,
      transfer: { token: stack.token },
      notify: { token: stack.token },
    })
    stopping.push({ stop: async () => front.close() })
    const t0 = performance.now()
    const primary = await startPrimary({
      dir: path.join(dir, 'primary'),
      zone: IN_ZONE,
      file: zoneFile,
      notifyPort: bindSecondaryPort,
      alsoNotify: [front.port],
    })
    stopping.push(primary)
    out.bindPrimaryLoadMs = performance.now() - t0
    log(
      `transfers: BIND primary loaded ${n.toLocaleString('en-US')} records in ${(out.bindPrimaryLoadMs / 1000).toFixed(1)} s`
    )

    // Row 1: our zone, outgoing transfers to a peer at its secondary's port.
    const zone = await createBenchZone({ api, log }, OUT_ZONE, n)
    out.seedMs = zone.seedMs
    // The seed leaves the builder flushing buckets in the background on the runtime's one thread
    // (and it sends NOTIFY only after its step): the loads start once it is quiet, as the
    // propagation section's measurements do.
    out.quietMs = await waitQuiet(stack, { zone }, log, { timeoutMs: 600_000 })
    const oursSecondaryPort = await freePort()
    const peer = await makePeer(api, account.id, 'bench-bind-secondary', oursSecondaryPort)
    await enableOutgoing(api, { id: zone.id, name: OUT_ZONE }, peer)
    // BIND → BIND and ours → BIND, load by load in turn.
    const [bind, ours] = await alternatingLoads({
      dir,
      rows: [
        { zone: IN_ZONE, primaryPort: primary.port, port: bindSecondaryPort, label: 'BIND → BIND' },
        { zone: OUT_ZONE, primaryPort: front.port, port: oursSecondaryPort, label: 'ours → BIND' },
      ],
      reps,
      log,
      primaries: [primary.proc.child.pid],
    })
    stopping.push(bind.named, ours.named)
    out.bindToBind = bind.load
    out.oursToBind = ours.load

    // Row 2: one change → the BIND secondary answers it.
    const tag = Date.now().toString(36)
    out.changeOurs = await changesSeen({
      named: ours.named,
      count: changes,
      log,
      label: 'ours → BIND',
      async change(j) {
        const rec = aRecord(`chg-${tag}`, j)
        const { headers } = await api.call('POST', `/zones/${zone.id}/dns_records`, rec)
        return {
          tCommit: api.committedAt(headers),
          name: `${rec.name}.${OUT_ZONE}`,
          content: rec.content,
        }
      },
    })
    out.changeBind = await changesSeen({
      named: bind.named,
      count: changes,
      log,
      label: 'BIND → BIND',
      async change(j) {
        const rec = aRecord(`chg-${tag}`, j)
        const name = `${rec.name}.${IN_ZONE}`
        await nsupdateAdd(primary.port, IN_ZONE, name, rec.content).catch((e) => {
          const said = primary
            .log()
            .split('\n')
            .filter((l) => /update|denied|refused/i.test(l))
            .slice(-5)
          throw new Error(`${e.message}\nthe primary's log: ${said.join('\n')}`)
        })
        // nsupdate returns once the primary acknowledged (committed) the update.
        return { tCommit: performance.now(), name, content: rec.content }
      },
    })

    // Row 3: AXFR in from the BIND primary into our secondary zone, until DoH answers its last record.
    await bind.named.stop()
    // A failure here is this row's alone: the rows above keep their figures.
    out.axfrIn = await axfrIn({ api, stack, log }, account.id, primary.port, n).catch((e) => {
      log(`transfers: AXFR in failed: ${e.stack ?? e}`)
      return { records: n, error: String(e.message ?? e) }
    })
    // Row 4: one change on the BIND primary → answered over DoH by that secondary zone.
    if (!out.axfrIn.error)
      out.changeIn = await changesIn({ stack, log }, primary.port, changes).catch((e) => {
        log(`transfers: changes in failed: ${e.stack ?? e}`)
        return { error: String(e.message ?? e) }
      })
    return out
  } finally {
    for (const p of stopping.reverse()) await p.stop().catch(() => {})
    rmSync(dir, { recursive: true, force: true })
  }
}

/**
 * One-record creates on the BIND primary (nsupdate), each `CHANGE_IN_GAP_MS` after the previous one
 * was answered, until our secondary zone of IN_ZONE answers it over DoH: the primary's NOTIFY
 * through the front, our SOA check and IXFR, its commit and the builder's pass. Timed from the
 * primary's acknowledgement (nsupdate's exit).
 */
async function changesIn({ stack, log }, primaryPort, count) {
  const tag = Date.now().toString(36)
  const seen = []
  for (let j = 0; j < count; j++) {
    const rec = aRecord(`in-${tag}`, j)
    const name = `${rec.name}.${IN_ZONE}`
    await nsupdateAdd(primaryPort, IN_ZONE, name, rec.content)
    const t0 = performance.now()
    const answered = await pollDoh(stack.dohUrl, name, (a) => a.data.includes(rec.content), {
      everyMs: 5,
      timeoutMs: 60_000,
    })
    seen.push(answered.atMs - t0)
    await sleep(CHANGE_IN_GAP_MS)
  }
  const out = { changes: count, seen: summarize(seen) }
  log(
    `transfers: BIND primary change → our secondary zone answers over DoH ${out.seen.median.toFixed(0)} ms p50 / ${out.seen.p99.toFixed(0)} ms p99`
  )
  return out
}

/** Our secondary zone of IN_ZONE: from the incoming settings' write (the first check starts then) until DoH answers the last record. */
async function axfrIn({ api, stack, log }, accountId, primaryPort, n) {
  const zone = (
    await api.call('POST', '/zones', {
      name: IN_ZONE,
      account: { id: accountId },
      type: 'secondary',
    })
  ).result
  const peer = await makePeer(api, accountId, 'bench-bind-primary', primaryPort, true)
  const last = aRecord('base', n - 1)
  const t0 = performance.now()
  await api.call('POST', `/zones/${zone.id}/secondary_dns/incoming`, {
    name: IN_ZONE,
    peers: [peer],
    auto_refresh_seconds: 86400,
  })
  // The commit: the incoming settings show the primary's serial once the transfer is committed
  // (polled until seen; stopped only when the DoH poll failed).
  let failed = false
  const committed = (async () => {
    while (!failed) {
      const r = (await api.call('GET', `/zones/${zone.id}/secondary_dns/incoming`)).result
      if (r.soa_serial !== undefined) return performance.now()
      await sleep(50)
    }
    return NaN
  })()
  committed.catch(() => {})
  const seen = await pollDoh(
    stack.dohUrl,
    `${last.name}.${IN_ZONE}`,
    (a) => a.data.includes(last.content),
    { everyMs: 100, timeoutMs: AXFR_IN_TIMEOUT_MS }
  ).catch((e) => {
    failed = true
    throw e
  })
  // Answering implies committed: a commit seen by the poll after the answer counts at the answer.
  const out = {
    records: n,
    committedMs: Math.min(await committed, seen.atMs) - t0,
    answeredMs: seen.atMs - t0,
  }
  log(
    `transfers: AXFR in of ${n.toLocaleString('en-US')} records committed ${(out.committedMs / 1000).toFixed(1)} s, answering over DoH ${(out.answeredMs / 1000).toFixed(1)} s after the incoming settings`
  )
  return out
}
