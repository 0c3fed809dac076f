/**
 * @module Size and count limits of zone-file imports.
 *
 * - Bytes: a file over IMPORT_MAX_BYTES (32 MiB; env MAX_IMPORT_BYTES overrides) is refused with
 *   413 before it is parsed. Cloudflare caps files at 256 KiB; we take whole zones of tens of
 *   thousands of records (50,000 A records are about 3 MB).
 * - Records: an import is all or nothing (staged in bounded chunks, committed as one transaction,
 *   see staged-import.ts), so it obeys the batch limit semantics (81063, nothing changes). The limit is the account's own `max_dns_batch_changes` when an administrator set one;
 *   otherwise the import cap IMPORT_MAX_RECORDS (50,000; env MAX_IMPORT_RECORDS overrides): an
 *   import of that many fits a JS heap capped at 100 MB in the API isolate, twice as many does not. The
 *   server-wide default batch limit (MAX_BATCH_CHANGES, 3,500) does not apply to imports: a zone
 *   file is a whole zone, committed as one.
 * - One record (a logical line: its parentheses and comments included): at most
 *   IMPORT_MAX_LINE_CHARS characters and IMPORT_MAX_LINE_TOKENS tokens, checked by the lexer while
 *   it reads the line, so a file that is one enormous line is refused (400, naming the line) after
 *   reading no more than the bound. Both are far above what any record can hold: the most a record
 *   carries on the wire (4,096 octets) written with escapes, plus a comment with the most tags.
 */
export const IMPORT_MAX_BYTES = 32 * 1024 * 1024
export const IMPORT_MAX_RECORDS = 50_000
export const IMPORT_MAX_LINE_CHARS = 262_144
export const IMPORT_MAX_LINE_TOKENS = 10_000

export function positiveInt(raw: string | undefined, fallback: number): number {
  const n = Number(raw)
  return raw !== undefined && Number.isInteger(n) && n > 0 ? n : fallback
}
