/** @module The record a transfer reads, as the page queries return it. */

/**
 * A record as a transfer reads it: a row of the transfer's columns (`relayed-zone.ts`) as D1
 * returns it with `raw()`, or a record of a joined page (`joined-page.ts`).
 */
export type TransferRow = [
  type: string,
  content: string,
  priority: number | null,
  owner: string,
  data: string | null,
  ttl: number,
]
