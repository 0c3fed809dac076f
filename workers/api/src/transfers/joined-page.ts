/**
 * @module A page of an outgoing transfer read from D1 as one joined string (`db/joined-rows.ts`):
 * the page query's records in transfer order, split back into transfer rows; a page that does not
 * split six fields a record is read again as rows.
 */
import { joinedRowsSql, SEPARATOR, type JoinedRows } from '../db/joined-rows.ts'
import type { TransferRow } from './transfer-row.ts'

/** The separator as a character code. */
const SEPARATOR_CODE = SEPARATOR.charCodeAt(0)

/**
 * The query of one joined page from the query of a page of rows whose columns are `type, content,
 * priority, owner, data, ttl` (never NULL but priority and data): its one row is the joined records
 * (`page`, NULL when there are none) and their number (`records`). A NULL priority or data is
 * written as an empty field.
 */
export const joinedPageSql = (rowsSql: string): string =>
  joinedRowsSql(rowsSql, [
    'type',
    'content',
    "ifnull(priority, '')",
    'owner',
    "ifnull(data, '')",
    'ttl',
  ])

/** Where a joined page's fields are read from, and whether a field was not what it must be. */
interface Cursor {
  readonly page: string
  at: number
  bad: boolean
}

/** The text field at the cursor (up to the next separator or the end), the cursor after it. */
function textField(c: Cursor): string {
  const end = c.page.indexOf(SEPARATOR, c.at)
  const to = end < 0 ? c.page.length : end
  const field = c.page.slice(c.at, to)
  c.at = to + 1
  return field
}

/**
 * The decimal integer field at the cursor (how SQLite writes an integer column), null when it is
 * empty; anything else marks the cursor bad. Read by its characters: no string is cut for it.
 */
function integerField(c: Cursor): number | null {
  const { page } = c
  const from = c.at
  let n = 0
  let i = from
  for (let ch; i < page.length && (ch = page.charCodeAt(i)) !== SEPARATOR_CODE; i++) {
    if (ch < 0x30 || ch > 0x39) c.bad = true
    n = n * 10 + (ch - 0x30)
  }
  c.at = i + 1
  return i === from ? null : n
}

/**
 * The rows of a joined page, in its order; null when they are not six fields a record (a field
 * held the separator) or a number field is not a number, so the page must be read as rows. An
 * empty priority or data field reads as none. The page is read field by field (no array of its
 * fields is built first).
 */
export function splitJoinedPage({ page, records }: JoinedRows): TransferRow[] | null {
  if (page === null) return records === 0 ? [] : null
  const c: Cursor = { page, at: 0, bad: false }
  const rows: TransferRow[] = new Array(records)
  for (let r = 0; r < records; r++) {
    if (c.at > page.length) return null
    const type = textField(c)
    const content = textField(c)
    const priority = integerField(c)
    const owner = textField(c)
    const data = textField(c)
    const ttl = integerField(c)
    if (ttl === null) return null
    rows[r] = [type, content, priority, owner, data === '' ? null : data, ttl]
  }
  return c.bad || c.at !== page.length + 1 ? null : rows
}
