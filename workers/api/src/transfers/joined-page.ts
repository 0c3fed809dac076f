/**
 * @module A page of an outgoing transfer read from D1 as one joined string (`db/joined-rows.ts`):
 * the page query's records in transfer order, split back into transfer rows; a page that does not
 * split six fields a record is read again as rows.
 */
import { joinedFields, joinedRowsSql, type JoinedRows } from '../db/joined-rows.ts'
import type { TransferRow } from './transfer-row.ts'

/** The fields of a record in a joined page. */
const FIELDS = 6

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

/**
 * The rows of a joined page, in its order; null when a field held the separator (the fields do not
 * come out six a record), so the page must be read as rows. An empty data field reads as none.
 */
export function splitJoinedPage(joined: JoinedRows): TransferRow[] | null {
  const fields = joinedFields(joined, FIELDS)
  if (!fields) return null
  const records = fields.length / FIELDS
  const rows: TransferRow[] = new Array(records)
  for (let r = 0, f = 0; r < records; r++, f += FIELDS) {
    const priority = fields[f + 2]!
    const data = fields[f + 4]!
    rows[r] = [
      fields[f]!,
      fields[f + 1]!,
      priority === '' ? null : Number(priority),
      fields[f + 3]!,
      data === '' ? null : data,
      Number(fields[f + 5]),
    ]
  }
  return rows
}
