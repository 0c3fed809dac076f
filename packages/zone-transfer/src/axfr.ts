/**
 * @module The record sequence of an AXFR answer (RFC 5936 §2.2): the SOA, every other record,
 * the SOA again.
 */
import { TYPE_CODES } from '@edgedns/dns-facts'
import type { ResponseRR } from '@edgedns/dns-wire'

/** SOA first and last; SOA records among `records` are skipped (the zone has exactly one). */
export function* axfrRecords(
  soa: ResponseRR,
  records: Iterable<ResponseRR>
): Generator<ResponseRR> {
  if (soa.type !== TYPE_CODES.SOA) throw new RangeError('an AXFR starts with the zone SOA')
  yield soa
  for (const rr of records) if (rr.type !== TYPE_CODES.SOA) yield rr
  yield soa
}
