/**
 * @module The slot copies of a head, written once the head is announced: readers that do not learn
 * heads from the feed (one that cannot reach it, a zone's first read) find heads in the slots.
 *
 * A head also goes to the slots of the counters skipped since the last recorded head (attempts
 * that failed, or a crash, before their slot was written): a reader holding head m confirms it
 * through the slot head m+1 goes to, and would take that slot's older head for "nothing newer"
 * until the counter came round to it again.
 */
import { HEAD_SLOTS, headKey, headSlot } from '@edgedns/kv-layout'
import type { StepContext } from './context.ts'
import { digestOf } from './ledger.ts'

/**
 * Tries at the head's own slot (not a write-once key, so a failed put is simply tried again),
 * each a key interval after the one before: a put that failed may still have landed, and KV
 * refuses a second write to a key within its interval.
 */
const SLOT_PUT_TRIES = 3

/**
 * Puts head `n` (`value`) into its slot, then into the slots of the counters skipped since the
 * recorded head, each paced like every slot (one write a second) and on a best-effort basis (a
 * skipped slot not written now is covered by the next head's). Throws when the head's own slot
 * cannot be written.
 */
export async function writeHeadSlots(
  ctx: StepContext,
  zone: string,
  n: number,
  value: string
): Promise<void> {
  const { io, state, limits } = ctx
  const slot = headKey(zone, headSlot(n))
  for (let attempt = 1; ; attempt++) {
    try {
      await io.kv.put(slot, value)
      break
    } catch (e) {
      if (attempt >= SLOT_PUT_TRIES) throw e
      ctx.budget.spend(1) // the next try is one more KV operation of the invocation
      if (limits.keyWriteIntervalMs > 0)
        await new Promise((resolve) => setTimeout(resolve, limits.keyWriteIntervalMs))
    }
  }
  const digest = digestOf(value)
  ctx.ledger.committedPuts([[slot, digest, io.now()]])
  const skipped = skippedSlots(zone, state.head.n, n).filter((key) => key !== slot)
  if (skipped.length === 0) return
  const now = io.now()
  const held = ctx.ledger.lookup(skipped)
  const due = skipped.filter(
    (key) => (held.get(key)?.writtenAt ?? 0) + limits.keyWriteIntervalMs <= now
  )
  if (due.length === 0) return
  ctx.ledger.markPending(due)
  ctx.budget.spend(due.length)
  const puts = await Promise.allSettled(due.map((key) => io.kv.put(key, value)))
  const at = io.now()
  ctx.ledger.committedPuts(
    due.filter((_, i) => puts[i]!.status === 'fulfilled').map((key) => [key, digest, at] as const)
  )
}

/** Slot keys of the counters between the recorded head `recorded` and head `n` (none for a zone's first head). */
export function skippedSlots(zone: string, recorded: number, n: number): string[] {
  if (recorded <= 0) return []
  const keys = new Set<string>()
  for (let c = recorded + 1; c < n && keys.size < HEAD_SLOTS; c++)
    keys.add(headKey(zone, headSlot(c)))
  return [...keys]
}
