/**
 * @module Reads the records already at the names an import writes to, in one D1 batch, to skip
 * records that exist identically (same name, type and content).
 */
import { reverseName, fromRow, type RecordRow } from '../records/model.ts'
import { jsonChunks } from '../db/json-chunks.ts'
import { recordKey } from './entries.ts'

export async function existingKeys(
  db: D1Database,
  zoneId: string,
  names: string[]
): Promise<Set<string>> {
  const chunks = jsonChunks([...new Set(names)].map(reverseName))
  if (chunks.length === 0) return new Set()
  const stmts = chunks.map((chunk) =>
    db
      .prepare(
        'SELECT * FROM dns_records WHERE zone_id = ?1 AND name_rev IN (SELECT value FROM json_each(?2))'
      )
      .bind(zoneId, chunk)
  )
  const keys = new Set<string>()
  for (const r of await db.batch(stmts))
    for (const row of r.results as unknown as RecordRow[]) keys.add(recordKey(fromRow(row)))
  return keys
}
