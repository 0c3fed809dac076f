/**
 * @module Reads the records already at the names an import writes to, in one D1 batch, to skip
 * records that exist identically (same name, type and content).
 */
import { reverseName, fromRow, type RecordRow } from '../records/model.ts'
import { jsonChunks } from '../batch/json-chunks.ts'
import { recordKey } from './entries.ts'

export async function existingKeys(db: D1Database, zoneId: string, names: string[]): Promise<Set<string>> {
  const chunks = jsonChunks([...new Set(names)].map(reverseName))
  if (chunks.length === 0) return new Set()
  const stmts = chunks.map((chunk) =>
    db.prepare('SELECT * FROM dns_records WHERE zone_id = ?1 AND name_rev IN (SELECT value FROM json_each(?2))').bind(zoneId, chunk)
  )
  const keys = new Set<string>()
  for (const r of await db.batch(stmts)) for (const row of r.results as unknown as RecordRow[]) keys.add(recordKey(fromRow(row)))
  return keys
}

/** Every record of a zone, read in id order pages so a 100k-record zone never needs one huge result. */
export async function allRecords(db: D1Database, zoneId: string, pageSize = 20_000): Promise<ReturnType<typeof fromRow>[]> {
  const out: ReturnType<typeof fromRow>[] = []
  let after = ''
  for (;;) {
    const { results } = await db.prepare('SELECT * FROM dns_records WHERE zone_id = ?1 AND id > ?2 ORDER BY id LIMIT ?3').bind(zoneId, after, pageSize).all<RecordRow>()
    for (const row of results) out.push(fromRow(row))
    if (results.length < pageSize) return out
    after = results[results.length - 1]!.id
  }
}
