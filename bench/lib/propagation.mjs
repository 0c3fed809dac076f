/**
 * @module Waiting for changes to become visible: the builder's cursor (propagation endpoint) and
 * the DoH read path itself (JSON API polled back to back until the answer matches).
 */

const sleep = (ms) => new Promise((r) => setTimeout(r, ms))

/** Resolves (ms waited) once built_seq ≥ `seq` (default: the zone's committed_seq at call time). */
export async function waitBuilt(api, zoneId, { seq, everyMs = 10, timeoutMs = 600_000 } = {}) {
  const t0 = performance.now()
  for (;;) {
    const p = (await api.call('GET', `/zones/${zoneId}/propagation`)).result
    const target = seq ?? p.committed_seq
    if (p.built_seq >= target) return performance.now() - t0
    if (p.last_error) throw new Error(`builder error: ${p.last_error.message}`)
    if (performance.now() - t0 > timeoutMs)
      throw new Error(
        `zone ${zoneId} not built to ${target} within ${timeoutMs} ms (at ${p.built_seq})`
      )
    await sleep(everyMs)
  }
}

/** One JSON DoH answer: { status, data: [rdata of the answer] }. */
export async function dohJson(base, name, type = 'A') {
  const res = await fetch(`${base}/dns-query?name=${encodeURIComponent(name)}&type=${type}`, {
    headers: { accept: 'application/dns-json' },
  })
  if (res.status !== 200) throw new Error(`DoH ${name}/${type} → HTTP ${res.status}`)
  const json = await res.json()
  return { status: json.Status, data: (json.Answer ?? []).map((a) => a.data) }
}

/**
 * Polls DoH back to back (or one poll every `everyMs`) until `accept(answer)`; returns { atMs:
 * performance.now() when seen, sentMs: when the poll that saw it was sent, polls }. Throws after
 * `timeoutMs`.
 */
export async function pollDoh(
  base,
  name,
  accept,
  { type = 'A', timeoutMs = 60_000, everyMs = 0 } = {}
) {
  const t0 = performance.now()
  for (let polls = 1; ; polls++) {
    const sentMs = performance.now()
    const answer = await dohJson(base, name, type)
    if (accept(answer)) return { atMs: performance.now(), sentMs, polls }
    if (performance.now() - t0 > timeoutMs)
      throw new Error(
        `${name} not visible through DoH within ${timeoutMs} ms (last ${JSON.stringify(answer)})`
      )
    if (everyMs > 0) await sleep(Math.max(0, sentMs + everyMs - performance.now()))
  }
}

/**
 * Waits until a builder's step has ended and its buckets are written (`builder`: its RPC stub):
 * the change before is then wholly done, and the next one is measured on a quiet builder. Gives
 * up after `timeoutMs` (the measurement then runs beside that work).
 */
export async function builderSettled(builder, { everyMs = 2, timeoutMs = 2000 } = {}) {
  const t0 = performance.now()
  while (performance.now() - t0 < timeoutMs) {
    const s = await builder.status()
    if (!s.stepping && s.dirtyBuckets === 0) return
    await sleep(everyMs)
  }
}

/**
 * A builder with nothing left to do in the background: buckets flushed, old bucket counts retired,
 * and no superseded key (bucket version, overlay key, versions table) waiting out its grace period
 * to be deleted (a seed leaves thousands, deleted in batches on the runtime's thread once due).
 */
const isQuiet = (s) =>
  s.dirtyBuckets === 0 &&
  s.overlayNames === 0 &&
  s.retire.length === 0 &&
  !s.full &&
  !s.purge &&
  (s.retiredKeys ?? 0) === 0 &&
  (s.overlayKeys ?? []).every((o) => o.key === s.namedOverlay)

/**
 * Waits until the builders of `zones` (an object of bench zones, each with its `id`) are quiet (see
 * `isQuiet`): a seed leaves thousands of buckets to flush and an old bucket count to retire, and
 * locally that work shares workerd's one thread with whatever is measured next. Returns the ms
 * waited; after `timeoutMs` it logs which zones are still busy and returns (a measurement then
 * runs beside that work, and the log says so).
 */
export async function waitQuiet(stack, zones, log, { everyMs = 100, timeoutMs = 180_000 } = {}) {
  const t0 = performance.now()
  for (;;) {
    const busy = []
    for (const { id } of Object.values(zones)) {
      const s = await (await stack.builder(id)).status()
      if (!isQuiet(s))
        busy.push({
          id,
          dirty: s.dirtyBuckets,
          overlay: s.overlayNames,
          retire: s.retire.length,
          retired: s.retiredKeys,
        })
    }
    const waited = performance.now() - t0
    if (busy.length === 0) return waited
    if (waited > timeoutMs) {
      log(
        `builders still busy after ${(waited / 1000).toFixed(0)} s, measuring anyway: ${JSON.stringify(busy)}`
      )
      return waited
    }
    await sleep(everyMs)
  }
}
