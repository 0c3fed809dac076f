/**
 * @module NOTIFY rounds of one zone builder: the zone's secondaries hear of each new serial as
 * soon as a pass has written its head, outside the build step. One round at a time: a serial made
 * while one is out gets a round of its own right after it, so the last serial is always
 * announced; a serial already announced is not announced again.
 */
import { notifyPeers } from '../transfers/notify.ts'
import { readOutgoingZone, type RelayedZone } from '../transfers/relayed-zone.ts'
import type { BuilderState } from './state.ts'

/** How long after a NOTIFY round its `checked_on` is written (past the SOA checks it starts). */
const CHECKED_ON_DELAY_MS = 250

export class SecondaryNotifier {
  /** The cursor last announced, the round out, and whether another is due after it. */
  #notifiedCursor = -1
  #notifying: Promise<void> | null = null
  #again = false
  /** The zone's outgoing read a pass started after reading its log (the next round's, once). */
  #outgoingRead: Promise<RelayedZone | null> | null = null

  /** `waitUntil` of the object the rounds run in (they outlive the step that started them). */
  constructor(private readonly waitUntil: (p: Promise<unknown>) => void) {}

  /** A new pass starts: a read started for an earlier pass is not this pass's. */
  passStarted(): void {
    this.#outgoingRead = null
  }

  /**
   * The pass has read the change log and the zone has outgoing transfers: the next round's read
   * of its peers and keys starts now, beside the head's writes. Read after the log the new cursor
   * came from, so the serial it finds is at least the cursor's.
   */
  outgoingSeen(db: D1Database, zoneId: string): void {
    this.#outgoingRead = readOutgoingZone(db, zoneId)
    this.#outgoingRead.catch(() => {})
  }

  /**
   * Sends the zone's secondaries NOTIFY for the state's cursor (outgoing transfers enabled, per
   * the zone row the pass read). True when a round was started or queued for this serial.
   */
  announce(db: D1Database, s: BuilderState): boolean {
    if (!s.outgoing || s.deleted || s.purge || s.full || s.zoneId === null) return false
    if (s.cursor === this.#notifiedCursor) return false
    this.#notifiedCursor = s.cursor
    const prefetched = this.#outgoingRead ?? undefined
    this.#outgoingRead = null
    if (this.#notifying) {
      this.#again = true
      return true
    }
    const zoneId = s.zoneId
    const rounds = async (): Promise<void> => {
      let read = prefetched
      do {
        this.#again = false
        await notifyPeers(db, zoneId, { stamp: (write) => this.#stampLater(write) }, read)
        read = undefined
      } while (this.#again)
    }
    this.#notifying = rounds().finally(() => (this.#notifying = null))
    this.waitUntil(this.#notifying)
    return true
  }

  /**
   * A NOTIFY round's `checked_on` write, `CHECKED_ON_DELAY_MS` after the round: the secondaries
   * answer a NOTIFY with a SOA check and a transfer, whose reads would otherwise wait behind it
   * on the zone's database. The next round does not wait for it.
   */
  #stampLater(write: () => Promise<unknown>): void {
    const later = new Promise((r) => setTimeout(r, CHECKED_ON_DELAY_MS))
      .then(write)
      .catch((e: unknown) => console.warn('NOTIFY: checked_on not written', e))
    this.waitUntil(later)
  }
}
