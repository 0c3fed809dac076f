/**
 * @module The builder's ledger of the KV keys it wrote (DO SQLite): a digest per key, so unchanged
 * values are not rewritten, and the time of the last write, so one key is written at most once a
 * second. Entries are written ahead of the KV call (digest NULL = outcome unknown), so a crash
 * between the KV write and the ledger update can only cause an extra write, never a missed delete.
 */
import { jsonChunks } from '../db/json-chunks.ts'

export interface LedgerEntry {
  digest: string | null
  writtenAt: number
}

export class KeyLedger {
  constructor(private readonly sql: SqlStorage) {
    sql.exec(`CREATE TABLE IF NOT EXISTS kv_keys (
      key TEXT PRIMARY KEY, digest TEXT, written_at INTEGER NOT NULL DEFAULT 0)`)
  }

  lookup(keys: string[]): Map<string, LedgerEntry> {
    const out = new Map<string, LedgerEntry>()
    for (let i = 0; i < keys.length; i += 500) {
      const chunk = JSON.stringify(keys.slice(i, i + 500))
      const rows = this.sql.exec<{ key: string; digest: string | null; written_at: number }>(
        'SELECT key, digest, written_at FROM kv_keys WHERE key IN (SELECT value FROM json_each(?))',
        chunk
      )
      for (const r of rows) out.set(r.key, { digest: r.digest, writtenAt: r.written_at })
    }
    return out
  }

  /** Before their puts: the keys may exist in KV from now on, values unknown (one statement). */
  markPending(keys: readonly string[]): void {
    for (const chunk of jsonChunks(keys))
      this.sql.exec(
        `INSERT INTO kv_keys (key, digest, written_at) SELECT value, NULL, 0 FROM json_each(?1) WHERE true
         ON CONFLICT (key) DO UPDATE SET digest = NULL`,
        chunk
      )
  }

  /** After their puts: each key's digest and write time (one statement). */
  committedPuts(entries: readonly (readonly [key: string, digest: string, at: number])[]): void {
    for (const chunk of jsonChunks(entries))
      this.sql.exec(
        `INSERT INTO kv_keys (key, digest, written_at)
         SELECT value ->> 0, value ->> 1, value ->> 2 FROM json_each(?1) WHERE true
         ON CONFLICT (key) DO UPDATE SET digest = excluded.digest, written_at = excluded.written_at`,
        chunk
      )
  }

  /** After their deletes: each key's write time (one statement); kept, so a re-create is paced as well. */
  committedDeletes(entries: readonly (readonly [key: string, at: number])[]): void {
    for (const chunk of jsonChunks(entries))
      this.sql.exec(
        `INSERT INTO kv_keys (key, digest, written_at)
         SELECT value ->> 0, 'deleted', value ->> 1 FROM json_each(?1) WHERE true
         ON CONFLICT (key) DO UPDATE SET digest = 'deleted', written_at = excluded.written_at`,
        chunk
      )
  }

  /** Forgets deleted keys whose pacing window has passed (keeps the ledger the size of the zone). */
  prune(before: number): void {
    this.sql.exec("DELETE FROM kv_keys WHERE digest = 'deleted' AND written_at < ?1", before)
  }

  clear(): void {
    this.sql.exec('DELETE FROM kv_keys')
  }

  size(): number {
    return this.sql
      .exec<{ n: number }>(
        "SELECT count(*) AS n FROM kv_keys WHERE digest IS NULL OR digest <> 'deleted'"
      )
      .one().n
  }
}

/**
 * 128-bit-ish string digest (two seeded 53-bit hashes, cyrb53, taken in one pass over the
 * string), sync and cheap; not cryptographic.
 */
export function digestOf(value: string): string {
  const a = 0x9e3779b9
  const b = 0x85ebca6b
  let a1 = 0xdeadbeef ^ a
  let a2 = 0x41c6ce57 ^ a
  let b1 = 0xdeadbeef ^ b
  let b2 = 0x41c6ce57 ^ b
  for (let i = 0; i < value.length; i++) {
    const ch = value.charCodeAt(i)
    a1 = Math.imul(a1 ^ ch, 2654435761)
    a2 = Math.imul(a2 ^ ch, 1597334677)
    b1 = Math.imul(b1 ^ ch, 2654435761)
    b2 = Math.imul(b2 ^ ch, 1597334677)
  }
  return `${finish(a1, a2).toString(36)}.${finish(b1, b2).toString(36)}.${value.length.toString(36)}`
}

function finish(h1: number, h2: number): number {
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909)
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909)
  return 4294967296 * (2097151 & h2) + (h1 >>> 0)
}
