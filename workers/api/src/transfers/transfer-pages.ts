/**
 * @module The keyset pages of an outgoing AXFR: each read as one joined string
 * (transfers/joined-page.ts) of as many records as keep it well under D1's longest string, judged
 * by the length of the page before; read as rows when the joined read fails (a page of records far
 * longer than the one before could pass that limit) or cannot be split. The first page is read in
 * one batch with the zone's change sequence, which tells whether it is of the version the transfer
 * serves, and with the TTL of its stored apex NS set, if any (zones/apex-ns.ts).
 */
import type { JoinedRows } from '../db/joined-rows.ts'
import { reverseName } from '../records/model.ts'
import { APEX_NS_TTL_SQL, apexNsTtlOf } from '../zones/apex-ns.ts'
import { splitJoinedPage } from './joined-page.ts'
import {
  FIRST_KEY,
  JOINED_PAGE_SQL,
  PAGE_SQL,
  pageSuffix,
  type TransferKey,
} from './relayed-zone.ts'
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

/**
 * The first page, with what the same transaction says of the zone: its change sequence (null: no
 * zone row), and the TTL of its stored apex NS set (null: it stores none, and its default name
 * servers are its apex NS set: zones/apex-ns.ts).
 */
export interface FirstTransferPage extends TransferPage {
  changeSeq: number | null
  apexNsTtl: number | null
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

/** A row of `PAGE_SQL` read as an object (in a batch) as `raw()` would have read it. */
function transferRow(r: Record<string, unknown>): TransferRow {
  return [
    r.type as string,
    r.content as string,
    r.priority as number | null,
    r.owner as string,
    r.data as string | null,
    r.ttl as number,
  ]
}

/**
 * The readers of the pages of zone `zone`, at most `pageSize` records each: `first()` the first
 * page with the zone's change sequence, `after(key)` the page after a key.
 */
export function transferPages(
  db: D1Database,
  zone: { id: string; name: string },
  pageSize: number
): {
  first: () => Promise<FirstTransferPage>
  after: (key: TransferKey) => Promise<TransferPage>
} {
  let records = pageSize
  const changeSeq = db.prepare('SELECT change_seq FROM zones WHERE id = ?1').bind(zone.id)
  const apexNs = db.prepare(APEX_NS_TTL_SQL).bind(zone.id, reverseName(zone.name))

  /** The page after `key`, in one batch with the zone's facts when `first`. */
  const read = async (key: TransferKey, first: boolean): Promise<FirstTransferPage> => {
    const asked = records
    const params = [zone.id, ...key, asked, pageSuffix(zone.name)]
    const batch = (sql: string) => {
      const page = db.prepare(sql).bind(...params)
      return db.batch(first ? [page, changeSeq, apexNs] : [page])
    }
    let results = await batch(JOINED_PAGE_SQL).catch(() => null)
    const joined = results?.[0]!.results[0] as JoinedRows | undefined
    let rows = joined ? splitJoinedPage(joined) : null
    if (results && rows) records = nextPageRecords(pageSize, rows.length, joined!.page?.length ?? 0)
    else {
      results = await batch(PAGE_SQL)
      rows = (results[0]!.results as Record<string, unknown>[]).map(transferRow)
      records = nextPageRecords(pageSize, rows.length, rowChars(rows))
    }
    const seq = results[1]?.results[0] as { change_seq: number } | undefined
    return {
      rows,
      more: rows.length >= asked,
      changeSeq: seq?.change_seq ?? null,
      apexNsTtl: apexNsTtlOf(results[2]),
    }
  }

  return { first: () => read(FIRST_KEY, true), after: (key) => read(key, false) }
}
