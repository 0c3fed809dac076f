/**
 * @module What a secondary zone must be after a transfer, checked by the last statements of the
 * transfer's commit batch, on the records as the batch leaves them, as BIND checks a zone it has
 * received before serving it: NS records at its apex (RFC 1034 §4.2.1: every zone has them; a
 * whole zone's are counted as it arrives too, packages/zone-transfer, but only the ones the
 * record mapping keeps count here), and
 * no CNAME beside other records at one name, nor two CNAMEs there (RFC 1034 §3.6.2, RFC 2181
 * §10.1). A zone that fails fails the whole batch: nothing of the transfer is committed, the copy
 * held stays, and the check fails naming why (BadZoneShape). The CNAME rule is checked at the names
 * of the records the transfer added (at most a batch's worth: an IXFR, an AXFR's difference), or,
 * for a zone replaced whole, at every CNAME of the zone; each name through the identity index, so
 * an IXFR's check costs what its additions do, not the zone's size.
 */
import type { StagedList } from './staged-list.ts'
import { STAGED_NAME_REV } from './staged-records.ts'
import { BadZoneShape } from './transfer-errors.ts'

/** The error D1 reports when the zone has no NS records at its apex. */
const NO_APEX_NS = 'NOT NULL constraint failed: zones.soa_mname'
/** The error D1 reports when a CNAME shares its name with another record. */
const CNAME_AND_OTHER = 'NOT NULL constraint failed: zones.soa_rname'

/** Fails the batch (NO_APEX_NS) unless zone ?1 holds an NS record at its own name. */
const APEX_NS = `UPDATE zones SET soa_mname = CASE WHEN EXISTS (
    SELECT 1 FROM dns_records AS r INDEXED BY dns_records_zone_type
    WHERE r.zone_id = ?1 AND r.type = 'NS' AND r.name = zones.name)
  THEN soa_mname END WHERE id = ?1`

/** A CNAME `c` that is not alone at its name in zone ?1. */
const CNAME_NOT_ALONE = `c.zone_id = ?1 AND c.type = 'CNAME' AND EXISTS (
    SELECT 1 FROM dns_records AS o INDEXED BY dns_records_identity
    WHERE o.zone_id = ?1 AND o.name_rev = c.name_rev AND o.rowid != c.rowid)`

/** Fails the batch (CNAME_AND_OTHER) when any CNAME of zone ?1 is not alone at its name. */
const CNAMES_ALONE = `UPDATE zones SET soa_rname = CASE WHEN EXISTS (
    SELECT 1 FROM dns_records AS c INDEXED BY dns_records_zone_type WHERE ${CNAME_NOT_ALONE})
  THEN NULL ELSE soa_rname END WHERE id = ?1`

/**
 * Fails the batch (CNAME_AND_OTHER) when, at the name of a record staged in rows ?3..?4 of list
 * ?2, a CNAME of zone ?1 is not alone.
 */
const ADDED_CNAMES_ALONE = `UPDATE zones SET soa_rname = CASE WHEN EXISTS (
    SELECT 1 FROM import_staging AS s CROSS JOIN json_each(s.row) AS j
      CROSS JOIN dns_records AS c INDEXED BY dns_records_identity
    WHERE s.import_id = ?2 AND s.ord BETWEEN ?3 AND ?4 AND c.name_rev = ${STAGED_NAME_REV}
      AND ${CNAME_NOT_ALONE})
  THEN NULL ELSE soa_rname END WHERE id = ?1`

/**
 * The statements checking zone `zoneId` once the batch's records are written: `added`, the staged
 * list of the records the transfer added; null for a zone replaced whole.
 */
export function zoneShapeGuards(
  db: D1Database,
  zoneId: string,
  added: StagedList | null
): D1PreparedStatement[] {
  const cnames = added
    ? added
        .ranges()
        .map(([lo, hi]) => db.prepare(ADDED_CNAMES_ALONE).bind(zoneId, added.id, lo, hi))
    : [db.prepare(CNAMES_ALONE).bind(zoneId)]
  return [db.prepare(APEX_NS).bind(zoneId), ...cnames]
}

/** The BadZoneShape a failed commit's error `e` stands for, or null when it is another failure. */
export function badShapeOf(e: unknown): BadZoneShape | null {
  const text = String((e as Error | undefined)?.message ?? e)
  if (text.includes(NO_APEX_NS))
    return new BadZoneShape('has no NS records at its apex', { cause: e })
  if (text.includes(CNAME_AND_OTHER))
    return new BadZoneShape('has a CNAME beside other records at one name', { cause: e })
  return null
}
