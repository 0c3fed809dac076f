/**
 * @module The records of a catalog zone, schema version 2 (RFC 9432 §4): its SOA, `NS invalid.`,
 * `version.<catalog> TXT "2"`, and one PTR per member zone at `<unique-id>.zones.<catalog>`. The
 * members come in as an async iterable, one at a time: this module holds no more of them than the
 * caller does (how many the caller reads at once is the caller's choice).
 */
import { TYPE_CODES } from '@edgedns/dns-facts'
import type { ResponseRR } from '@edgedns/dns-wire'

/** The TTL of every catalog record: RFC 9432 §4 says nothing about it; secondaries ignore it. */
export const CATALOG_TTL = 0

/** One member zone: a label unique to this incarnation of the zone, and the zone's name. */
export interface CatalogMember {
  /** A DNS label (RFC 9432 §4.4.1): a zone deleted and added again gets a new one. */
  id: string
  /** The member zone's name, without the final dot. */
  name: string
}

const LABEL = /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/

/**
 * The catalog's SOA, as RFC 9432's examples write it: `invalid.` for both names, an hour's refresh,
 * ten minutes' retry, the longest expire a secondary accepts, and no negative caching.
 */
export function catalogSoa(catalog: string, serial: number): ResponseRR {
  return {
    name: catalog,
    type: TYPE_CODES.SOA,
    ttl: CATALOG_TTL,
    rdata: `invalid. invalid. ${serial} 3600 600 2147483646 0`,
  }
}

/** The catalog's records after the SOA: NS, version, then one PTR per member, as they come. */
export async function* catalogRecords(
  catalog: string,
  members: AsyncIterable<CatalogMember>
): AsyncGenerator<ResponseRR> {
  yield { name: catalog, type: TYPE_CODES.NS, ttl: CATALOG_TTL, rdata: 'invalid.' }
  yield { name: `version.${catalog}`, type: TYPE_CODES.TXT, ttl: CATALOG_TTL, rdata: '"2"' }
  for await (const m of members) {
    if (!LABEL.test(m.id)) throw new RangeError(`catalog member id ${m.id} is not a DNS label`)
    yield {
      name: `${m.id}.zones.${catalog}`,
      type: TYPE_CODES.PTR,
      ttl: CATALOG_TTL,
      rdata: `${m.name.replace(/\.$/, '')}.`,
    }
  }
}
