/** Reads every row a zone owns, in a stable order, to compare states byte for byte. */
import { env } from 'cloudflare:workers'

export async function snapshotZone(zoneId: string): Promise<string> {
  const tables: [string, string][] = [
    ['zones', 'SELECT * FROM zones WHERE id = ?1'],
    ['dns_records', 'SELECT * FROM dns_records WHERE zone_id = ?1 ORDER BY id'],
    ['change_log', 'SELECT * FROM change_log WHERE zone_id = ?1 ORDER BY seq'],
  ]
  const out: Record<string, unknown[]> = {}
  for (const [name, sql] of tables)
    out[name] = (await env.DB.prepare(sql).bind(zoneId).all()).results
  return JSON.stringify(out)
}
