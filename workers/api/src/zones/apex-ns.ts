/**
 * @module The apex NS set of a zone, one rule wherever it is given (the edge's answers, outgoing
 * transfers, the zone-file export and import): the zone's stored apex NS records when it has any
 * (a multi-provider or hidden-primary zone names its own set, ours among them or not), else its
 * default name servers, the vanity ones when set, else those assigned. A stored set is served as
 * any RRset is, with its smallest record TTL (a secondary zone's with its primary's); the default
 * set with the zone's NS TTL (`ns_ttl`).
 */
import { AUTO_TTL_SECONDS } from '@edgedns/records'

/**
 * The name servers a zone names at its apex when it stores no apex NS record: its vanity name
 * servers when it has any, else those assigned (each a JSON array of host names).
 */
export function defaultNameServers(vanityJson: string, assignedJson: string): string[] {
  const vanity = JSON.parse(vanityJson) as string[]
  return vanity.length > 0 ? vanity : (JSON.parse(assignedJson) as string[])
}

/** `defaultNameServers` of a zone row. */
export const zoneDefaultNameServers = (z: {
  vanityNameServers: string
  nameServers: string
}): string[] => defaultNameServers(z.vanityNameServers, z.nameServers)

/**
 * The TTL of zone ?1's stored apex NS set (?2: the apex's reversed name), as `ttl`: its smallest
 * record TTL (automatic, 1, is served as AUTO_TTL_SECONDS); NULL when the zone stores no apex NS
 * record. Read through the records' identity index.
 */
export const APEX_NS_TTL_SQL = `SELECT min(CASE ttl WHEN 1 THEN ${AUTO_TTL_SECONDS} ELSE ttl END) AS ttl
  FROM dns_records WHERE zone_id = ?1 AND name_rev = ?2 AND type = 'NS'`

/** `APEX_NS_TTL_SQL`'s answer: the stored set's TTL, or null. */
export const apexNsTtlOf = (result: D1Result | undefined): number | null =>
  (result?.results[0] as { ttl: number | null } | undefined)?.ttl ?? null

/** A host name as compared in an NS set: lower case, no final dot. */
const nsHost = (host: string): string => host.toLowerCase().replace(/\.$/, '')

/**
 * Whether a zone file's apex NS hosts are the zone's default set exactly (letter case and final
 * dots aside): such a file names no set of its own, and its apex NS lines are not stored.
 */
export function isDefaultSet(hosts: string[], defaults: string[]): boolean {
  const a = new Set(hosts.map(nsHost))
  const b = new Set(defaults.map(nsHost))
  return a.size === b.size && [...a].every((h) => b.has(h))
}
