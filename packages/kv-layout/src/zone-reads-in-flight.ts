/**
 * @module A held zone's confirmation read in flight, shared by the queries that need it: joined
 * when it started late enough, started otherwise, and kept alive by a request when it runs in the
 * background.
 */
import { settledWithin, SHARED_WAIT_MS, type KeepAlive } from '@edgedns/zone-feed'
import type { ZoneEntry } from './zone-entry.ts'

/**
 * Runs `read` as the zone's confirmation read, or joins one in flight that started at or after
 * `floor`. In Workers (with `handle_cross_request_promise_resolution`, which the workers'
 * compatibility date turns on) a promise settles only in the request that started it, so it never
 * settles if that request ends first (a client that went away): a waiter gives up after
 * `SHARED_WAIT_MS` and reads for itself; a read in flight for longer than that is not joined.
 * Whoever started a read clears it. True when this call ran `read` itself.
 */
export async function joinOrRead(
  entry: ZoneEntry,
  floor: number,
  now: () => number,
  read: (startedAt: number) => Promise<ZoneEntry | null>
): Promise<boolean> {
  const inflight = entry.refresh
  if (inflight && inflight.startedAt >= floor && now() - inflight.startedAt < SHARED_WAIT_MS) {
    const outcome = await settledWithin(inflight.read, SHARED_WAIT_MS)
    if (outcome.kind === 'value') return false
    if (entry.refresh === inflight) entry.refresh = null
  }
  const at = now()
  const own = { read: read(at), startedAt: at }
  entry.refresh = own
  try {
    await own.read
  } finally {
    if (entry.refresh === own) entry.refresh = null
  }
  return true
}

/** Makes `own` the zone's read in flight, kept alive by the request, cleared by itself when done. */
export function inBackground(
  entry: ZoneEntry,
  own: Promise<ZoneEntry | null>,
  startedAt: number,
  keepAlive: KeepAlive
): void {
  const refresh = { read: own, startedAt }
  entry.refresh = refresh
  keepAlive(
    own
      .catch(() => null)
      .finally(() => {
        if (entry.refresh === refresh) entry.refresh = null
      })
  )
}
