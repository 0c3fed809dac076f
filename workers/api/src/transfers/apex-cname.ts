/**
 * @module A CNAME at the zone's apex is left out of outgoing transfers (AXFR, and both sides of an
 * IXFR difference). The API accepts one for Cloudflare's CNAME flattening: the edge answers A and
 * AAAA at the apex with the target's addresses, looked up at query time. A secondary cannot hold
 * it (a CNAME beside the apex SOA and NS: Knot refuses the zone, BIND's `named-checkzone` too, NSD
 * answers every apex question with the CNAME), and the target's addresses sent in its place would
 * go stale, so the secondaries get the zone without it (docs/zone-transfers.md).
 */

/** Whether a record of zone `zone` (name `name`, type `type`) is a CNAME at its apex. */
export const isApexCname = (zone: string, name: string, type: string): boolean =>
  type === 'CNAME' && name === zone
