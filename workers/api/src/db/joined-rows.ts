/**
 * @module Rows read from D1 as one joined string: a query's rows, each field of each row in order,
 * separated by one character (DEL), with the number of rows beside it. D1 then serialises, and the
 * worker parses, one value per read instead of an object or array per row; the worker splits it
 * back. A field may itself hold the separator (no stored column excludes it) and a NULL field drops
 * its whole row from the join: either way the split gives other than `width` fields a row, so such
 * a read is known unusable and the caller reads the rows as rows.
 */

/**
 * The characters a joined read aims at: D1's longest string is 2,000,000 bytes, and a character
 * (UTF-16 unit) is at most three bytes of UTF-8. A read is joined only when the one before it came
 * to at most this many characters, so it stays under D1's limit unless it is far longer than that one.
 */
export const JOINED_READ_CHARS = 500_000

/** The separator of a joined read's fields: JSON writes it as itself, DNS data rarely holds it. */
const SEPARATOR = '\x7f'

/**
 * The query joining the rows of `rowsSql`, in its order, each as `fields` (SQL expressions; write
 * a nullable column as `ifnull(column, '')`): one row, `{page, records}`.
 */
export const joinedRowsSql = (rowsSql: string, fields: readonly string[]): string => `SELECT
    group_concat(${fields.join(' || char(127) || ')}, char(127)) AS page, count(*) AS records
  FROM (${rowsSql})`

/** The one row of a joined read. */
export interface JoinedRows {
  page: string | null
  records: number
}

/**
 * The fields of a joined read, `width` a row in the rows' order (row r's fields are
 * `[r * width, (r + 1) * width)`); null when they do not come out `width` a row.
 */
export function joinedFields({ page, records }: JoinedRows, width: number): string[] | null {
  if (page === null) return records === 0 ? [] : null
  const fields = page.split(SEPARATOR)
  return fields.length === records * width ? fields : null
}
