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

/**
 * Grows zone `n` that `seedInD1` wrote with one record (`www`) to `size` records, `chunk` at a time
 * (one statement of a million rows is more than local D1 takes): records `r1` … `r<size − 1>` with
 * their change-log entries, then the zone's change sequence, its serial's entry and its build state
 * moved to the last of them, as if the seed had written them all. Returns the records added.
 */
export async function growSeededZone(
  db,
  n,
  size,
  log,
  { parent = SEED_PARENT, chunk = 100_000 } = {}
) {
  const id = `b${n.toString(16).padStart(31, '0')}`
  const name = `z${n}.${parent}`
  const rev = `${parent.split('.').reverse().join('.')}.z${n}`
  const now = new Date().toISOString()
  let added = 0
  for (let lo = 1; lo < size; lo += chunk) {
    const hi = Math.min(size, lo + chunk)
    const k = `WITH RECURSIVE k(j) AS (SELECT CAST(?1 AS INTEGER) UNION ALL SELECT j + 1 FROM k WHERE j + 1 < ?2)`
    const results = await db.batch([
      db
        .prepare(
          `INSERT INTO dns_records (id, zone_id, name, name_rev, type, content, ttl, created_on, modified_on)
           ${k} SELECT printf('r%023x%08x', ?3, j), ?4, 'r' || j || '.' || ?5, ?6 || '.r' || j, 'A',
             '10.' || ((?3 >> 8) & 255) || '.' || (?3 & 255) || '.' || (j & 255), 300, ?7, ?7 FROM k`
        )
        .bind(lo, hi, n, id, name, rev, now),
      db
        .prepare(
          `INSERT INTO change_log (zone_id, seq, op, record_id, new_name, type, token_id, created_on)
           ${k} SELECT ?4, j + 2, 'create', printf('r%023x%08x', ?3, j), 'r' || j || '.' || ?5, 'A', 'bench', ?6 FROM k`
        )
        .bind(lo, hi, n, id, name, now),
    ])
    added += results[0].meta.changes
    log(`${name}: ${hi.toLocaleString('en-US')} records in D1`)
  }
  await db.batch([
    db.prepare('UPDATE zones SET change_seq = ?2 WHERE id = ?1').bind(id, size + 1),
    db.prepare('UPDATE zone_serials SET seq = ?2 WHERE zone_id = ?1').bind(id, size + 1),
    db.prepare('UPDATE build_state SET built_seq = ?2 WHERE zone_id = ?1').bind(id, size + 1),
  ])
  return added
}
