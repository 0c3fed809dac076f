/** @module types — public shapes of parsed zone entries and parser options. */

export interface ZoneEntry {
  /** Absolute owner, lowercase, without trailing dot; the root is '.'. */
  name: string
  /**
   * Resolved TTL (BIND rules): explicit, else $TTL, else the last explicit TTL, else for a SOA its
   * minimum (which then acts as $TTL), else ParseOptions.defaultTtl.
   */
  ttl: number
  class: 'IN'
  /** Uppercase type mnemonic as written (also TYPEnnn); not checked against a type list. */
  type: string
  /**
   * The rdata tokens joined by one space: quoted strings kept verbatim (quotes and escapes),
   * parentheses and comments removed, relative names left as written (see `origin`).
   */
  rdata: string
  /** The $ORIGIN in force for this record (absolute, no trailing dot; root is '.'). */
  origin: string
  /** Trimmed text of the comment on the record's last line, without ';'. */
  comment?: string
  /** 1-based line on which the record starts. */
  line: number
}

export interface ParseOptions {
  /** Initial origin, e.g. 'example.com' or 'example.com.'. */
  origin: string
  /** TTL for records that get none from the file (no explicit TTL, $TTL, earlier TTL or SOA). */
  defaultTtl?: number
  /** Maximum number of entries (records plus $GENERATE output); default 1,000,000. */
  maxRecords?: number
  /**
   * Most characters in one logical line (a record with its parentheses and comments), checked
   * while it is read; default 262,144.
   */
  maxLineChars?: number
  /** Most tokens in one logical line, checked while it is read; default 10,000. */
  maxLineTokens?: number
}
