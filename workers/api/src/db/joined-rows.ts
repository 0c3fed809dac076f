/**
 * @module Rows read from D1 as one joined string: a query's rows, each field of each row in order,
 * separated by one character (DEL), with the number of rows beside it. D1 then serialises, and the
 * worker parses, one value per read instead of an object or array per row; the worker splits it
 * back. A field may itself hold the separator (no stored column excludes it) and a NULL field drops
 * its whole row from the join: either way the split gives other than `width` fields a row, so such
 * a read is known unusable and the caller reads the rows as rows.
 */

/** The separator of a joined read's fields: JSON writes it as itself, DNS data rarely holds it. */
export const SEPARATOR = '\x7f'

/**
 * The query joining the rows of `rowsSql`, in its order, each as `fields` (SQL expressions; write
 * a nullable column as `ifnull(column, '')`): one row, `{page, records}`. Its string is as long as
 * the rows make it: the caller sizes its reads to keep it under D1's longest string (2,000,000
 * bytes; a longer one fails the read), or uses `boundedJoinedRowsSql`.
 */
export const joinedRowsSql = (rowsSql: string, fields: readonly string[]): string => `SELECT
    group_concat(${fields.join(' || char(127) || ')}, char(127)) AS page, count(*) AS records
  FROM (${rowsSql})`

/** Rows a bounded joined read joins at most, and the bytes of a row it joins at most… */
export const BOUNDED_ROWS = 10_000
const BOUNDED_ROW_BYTES = 198

/**
 * …so the string of `boundedJoinedRowsSql` never passes D1's longest (2,000,000 bytes), whatever
 * the rows hold: the first `BOUNDED_ROWS` rows of `rowsSql` joined as by `joinedRowsSql`, a row of
 * more than `BOUNDED_ROW_BYTES` bytes left out (its absence makes the split come out short, so the
 * read is known unusable), and `records` counting every row read. A read that reached
 * `BOUNDED_ROWS` may have left rows out after them: the caller reads such a page as rows.
 */
export const boundedJoinedRowsSql = (rowsSql: string, fields: readonly string[]): string => `SELECT
    group_concat(iif(length(CAST(joined AS BLOB)) <= ${BOUNDED_ROW_BYTES}, joined, NULL), char(127)) AS page,
    count(*) AS records
  FROM (SELECT ${fields.join(' || char(127) || ')} AS joined FROM (${rowsSql}) LIMIT ${BOUNDED_ROWS})`

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
