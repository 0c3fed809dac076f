/** @module errors — ZoneFileError: a zone-file syntax error with its 1-based line and column. */

/** A position in the zone file text (1-based line and column, columns count UTF-16 units). */
export interface Position {
  line: number
  column: number
}

/**
 * Thrown for every syntax problem. `message` is `line L, column C: <reason>`; `reason` holds the
 * bare text (for example `$INCLUDE directive not allowed`).
 */
export class ZoneFileError extends Error {
  readonly line: number
  readonly column: number
  readonly reason: string

  constructor(reason: string, at: Position) {
    super(`line ${at.line}, column ${at.column}: ${reason}`)
    this.name = 'ZoneFileError'
    this.line = at.line
    this.column = at.column
    this.reason = reason
  }
}
