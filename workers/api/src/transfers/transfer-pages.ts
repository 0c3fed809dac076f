/**
 * @module The keyset pages of an outgoing AXFR after its first: each read as one joined string
 * (transfers/joined-page.ts) of as many records as keep it well under D1's longest string, judged
 * by the length of the page before; read as rows when the joined read fails (a page of records far
 * longer than the one before could pass that limit) or cannot be split.
 */
import type { JoinedRows } from '../db/joined-rows.ts'
import { splitJoinedPage } from './joined-page.ts'
import { JOINED_PAGE_SQL, PAGE_SQL, pageSuffix, type TransferKey } from './relayed-zone.ts'
import type { TransferRow } from './transfer-row.ts'

/**
 * The characters a joined page aims at: D1's longest string is 2,000,000 bytes, and a character
 * (UTF-16 unit) is at most three bytes of UTF-8.
 */
const JOINED_PAGE_CHARS = 500_000

/** A page read: its rows, and whether more may follow (it was as long as asked). */
export interface TransferPage {
  rows: TransferRow[]
  more: boolean
}

/** The characters of a page of rows, about as joined. */
function rowChars(rows: TransferRow[]): number {
  let n = 0
  for (const [type, content, , owner, data] of rows)
    n += type.length + content.length + owner.length + (data?.length ?? 0) + 16
  return n
}

/** The records to ask for after a page of `records` records and `chars` characters. */
function nextPageRecords(pageSize: number, records: number, chars: number): number {
  if (records === 0 || chars <= 0) return pageSize
  return Math.max(1, Math.min(pageSize, Math.floor((JOINED_PAGE_CHARS * records) / chars)))
}

/**
 * A reader of the pages of zone `zone` after a key, at most `pageSize` records each; `first` is
 * the page read before them (with the zone row), which sizes the next.
 */
export function transferPages(
  db: D1Database,
  zone: { id: string; name: string },
  pageSize: number,
  first: TransferRow[]
): (after: TransferKey) => Promise<TransferPage> {
  let records = nextPageRecords(pageSize, first.length, rowChars(first))
  return async (after) => {
    const asked = records
    const params = [zone.id, ...after, asked, pageSuffix(zone.name)]
    const joined = await db
      .prepare(JOINED_PAGE_SQL)
      .bind(...params)
      .first<JoinedRows>()
      .catch(() => null)
    let rows = joined && splitJoinedPage(joined)
    if (rows) records = nextPageRecords(pageSize, rows.length, joined!.page?.length ?? 0)
    else {
      rows = await db
        .prepare(PAGE_SQL)
        .bind(...params)
        .raw<TransferRow>()
      records = nextPageRecords(pageSize, rows.length, rowChars(rows))
    }
    return { rows, more: rows.length >= asked }
  }
}
