/**
 * @module Many small zones straight into D1 (bench/many-zones.mjs, bench/zones-at-scale.mjs): the
 * rows the API writes for them, generated in SQL chunk by chunk, marked built, and in the directory.
 */

/** The parent name of the seeded zones unless a bench picks its own. */
export const SEED_PARENT = 'many.bench'

/** Zones written per chunk of statements. */
const SEED_CHUNK = 5000

/**
 * Zones `from`…`to − 1` of one account straight into its shard with the rows the API writes (zone,
 * records, change log), marked built (build_state at their sequence, off the sweep's list), and
 * into the directory on shard 0 (`directory`). Zone n is `z<n>.<parent>` (id `b` + n in hex, 31
 * digits) with 1 + (n · 7919 mod `maxRecords`) A records `www`, `r1`, `r2`, … Returns the records written.
 */
export async function seedInD1(
  db,
  directory,
  accountId,
  from,
  to,
  log,
  { parent = SEED_PARENT, maxRecords = 20 } = {}
) {
  const PARENT = parent
  const now = new Date().toISOString()
  let records = 0
  for (let lo = from; lo < to; lo += SEED_CHUNK) {
    const hi = Math.min(to, lo + SEED_CHUNK)
    const zonesCte = `WITH RECURSIVE i(n) AS (SELECT CAST(?1 AS INTEGER) UNION ALL SELECT n + 1 FROM i WHERE n + 1 < ?2),
      z(n, id, name, rev, cnt) AS (SELECT n, printf('b%031x', n), 'z' || n || '.${PARENT}', '${PARENT.split('.').reverse().join('.')}.z' || n, 1 + ((n * 7919) % ${Number(maxRecords)}) FROM i)`
    const recsCte = `${zonesCte}, k(n, id, name, rev, cnt, j) AS (SELECT n, id, name, rev, cnt, 0 FROM z UNION ALL SELECT n, id, name, rev, cnt, j + 1 FROM k WHERE j + 1 < cnt)`
    const label = `CASE WHEN j = 0 THEN 'www' ELSE 'r' || j END`
    const results = await db.batch([
      db
        .prepare(
          `INSERT INTO zones (id, account_id, name, name_rev, name_servers, soa_mname, soa_rname, serial, version, change_seq, created_on, modified_on, activated_on)
           ${zonesCte} SELECT id, ?3, name, rev, '["ns1.edgedns.dev","ns2.edgedns.dev"]', 'ns1.edgedns.dev', 'dns.edgedns.dev', 1, 2, cnt + 1, ?4, ?4, ?4 FROM z`
        )
        .bind(lo, hi, accountId, now),
      db
        .prepare(
          `INSERT INTO dns_records (id, zone_id, name, name_rev, type, content, ttl, created_on, modified_on)
           ${recsCte} SELECT printf('r%023x%08x', n, j), id, ${label} || '.' || name, rev || '.' || ${label}, 'A',
             '10.' || ((n >> 8) & 255) || '.' || (n & 255) || '.' || (j & 255), 300, ?4, ?4 FROM k`
        )
        .bind(lo, hi, accountId, now),
      db
        .prepare(
          `INSERT INTO change_log (zone_id, seq, op, created_on) ${zonesCte} SELECT id, 1, 'zone', ?4 FROM z`
        )
        .bind(lo, hi, accountId, now),
      db
        .prepare(
          `INSERT INTO change_log (zone_id, seq, op, record_id, new_name, type, token_id, created_on)
           ${recsCte} SELECT id, j + 2, 'create', printf('r%023x%08x', n, j), ${label} || '.' || name, 'A', 'bench', ?4 FROM k`
        )
        .bind(lo, hi, accountId, now),
      db
        .prepare(
          `INSERT INTO build_state (zone_id, zone_name, built_seq, built_at) ${zonesCte} SELECT id, name, cnt + 1, 0 FROM z`
        )
        .bind(lo, hi),
      db
        .prepare(`DELETE FROM zones_behind WHERE zone_id IN (${zonesCte} SELECT id FROM z)`)
        .bind(lo, hi),
    ])
    await directory
      .prepare(
        `INSERT INTO directory_zones (zone_id, account_id, name, name_rev, created_on)
         ${zonesCte} SELECT id, ?3, name, rev, ?4 FROM z`
      )
      .bind(lo, hi, accountId, now)
      .run()
    records += results[1].meta.changes
    if ((hi - from) % 25_000 === 0 || hi === to) log(`${PARENT}: zones up to ${hi} in D1`)
  }
  return records
}
