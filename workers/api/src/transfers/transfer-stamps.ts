/**
 * @module The time of each completed outgoing transfer (`last_transferred_on` of the zone's
 * outgoing settings), written in batches: the completions an isolate sees within
 * `STAMP_DELAY_MS` of the first one are written together, one UPDATE per shard and chunk, instead of
 * one write per transfer on a database that runs one query at a time (a secondary's cold start
 * transfers thousands of zones back to back). The stamp lands up to that delay after the transfer.
 */

/** How long the first completion waits for others before the stamps are written. */
const STAMP_DELAY_MS = 250

/** Zones per UPDATE: keeps the bound JSON far below D1's statement and argument limits. */
const STAMPS_PER_STATEMENT = 500

const STAMP_SQL = `UPDATE zone_transfers_outgoing
  SET last_transferred_on = (SELECT value FROM json_each(?1) WHERE key = zone_id)
  WHERE zone_id IN (SELECT key FROM json_each(?1))`

/** Hands a background write to the runtime (`ctx.waitUntil`) so it outlives the response. */
export type Background = (work: Promise<unknown>) => void

export class TransferStamps {
  /** Per database: zone id → when its last transfer completed. */
  private pending = new Map<D1Database, Map<string, string>>()
  private scheduled = false

  constructor(private readonly delayMs = STAMP_DELAY_MS) {}

  /**
   * Records that a transfer of `zoneId` (on `db`) completed at `at`. The first record of a batch
   * schedules the write through `background`; later ones join it.
   */
  record(db: D1Database, zoneId: string, at: string, background: Background): void {
    let zones = this.pending.get(db)
    if (!zones) this.pending.set(db, (zones = new Map()))
    zones.set(zoneId, at)
    if (this.scheduled) return
    this.scheduled = true
    background(new Promise((resolve) => setTimeout(resolve, this.delayMs)).then(() => this.flush()))
  }

  /** Writes every pending stamp now. */
  async flush(): Promise<void> {
    const pending = this.pending
    this.pending = new Map()
    this.scheduled = false
    await Promise.all(
      [...pending].map(async ([db, zones]) => {
        const entries = [...zones]
        const statements = []
        for (let i = 0; i < entries.length; i += STAMPS_PER_STATEMENT) {
          const chunk = Object.fromEntries(entries.slice(i, i + STAMPS_PER_STATEMENT))
          statements.push(db.prepare(STAMP_SQL).bind(JSON.stringify(chunk)))
        }
        await db
          .batch(statements)
          .catch((err: unknown) => console.error('transfer: last_transferred_on', err))
      })
    )
  }
}
