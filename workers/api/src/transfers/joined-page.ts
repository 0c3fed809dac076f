/**
 * @module A page of an outgoing transfer read from D1 as one string: the page query's records
 * joined in transfer order, their fields separated by one character (DEL), with the number of
 * records beside it. D1 then serialises, and the worker parses, one value per page instead of a row
 * array per record; the worker splits it back into rows. A field may itself hold the separator (no
 * stored column excludes it): the split then gives more fields than six a record, so such a page
 * is known ambiguous and read again as rows.
 */
import type { TransferRow } from './transfer-row.ts'

/** The separator of a joined page's fields: JSON writes it as itself, DNS data rarely holds it. */
const SEPARATOR = '\x7f'

/** The fields of a record in a joined page. */
const FIELDS = 6

/**
 * The query of one joined page from the query of a page of rows whose columns are `type, content,
 * priority, owner, data, ttl` (never NULL but priority and data): its one row is the joined records
 * (`page`, NULL when there are none) and their number (`records`). A NULL priority or data is
 * written as an empty field.
 */
export const joinedPageSql = (rowsSql: string): string => `SELECT
    group_concat(type || char(127) || content || char(127) || ifnull(priority, '') || char(127)
      || owner || char(127) || ifnull(data, '') || char(127) || ttl, char(127)) AS page,
    count(*) AS records
  FROM (${rowsSql})`

/** The one row of a joined page's query. */
export interface JoinedPage {
  page: string | null
  records: number
}

/**
 * The rows of a joined page, in its order; null when a field held the separator (the fields do not
 * come out six a record), so the page must be read as rows. An empty data field reads as none.
 */
export function splitJoinedPage({ page, records }: JoinedPage): TransferRow[] | null {
  if (page === null) return records === 0 ? [] : null
  const fields = page.split(SEPARATOR)
  if (fields.length !== records * FIELDS) return null
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
