/**
 * @module Why an outgoing transfer was broken off mid-stream (the secondary discards what it got).
 */

/** The zone changed while its transfer was read: the copy would mix two versions under one serial. */
export class ZoneChangedDuringTransfer extends Error {
  constructor(zone: string) {
    super(`${zone} changed during its transfer; the transfer was broken off`)
    this.name = 'ZoneChangedDuringTransfer'
  }
}
