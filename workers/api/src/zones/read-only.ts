/**
 * @module Records of a `secondary` zone come from its primary by zone transfer: the Records API
 * reads and exports them but refuses every write (single, batch, import) with one error. So does
 * its SOA: the zone's DNS settings refuse SOA values (the primary's serial is served with the
 * primary's SOA, and its timers drive the zone's refresh, retry and expiry).
 */
import { ApiError, Codes } from '../http/api-error.ts'
import type { ZoneRow } from './model.ts'

export function assertRecordsWritable(zone: ZoneRow): void {
  if (zone.type !== 'secondary') return
  throw ApiError.badRequest(
    Codes.secondaryReadOnly,
    `${zone.name} is a secondary zone: its records come from its primary by zone transfer and cannot be changed through the API`
  )
}

export function assertSoaWritable(zone: ZoneRow): void {
  if (zone.type !== 'secondary') return
  throw ApiError.badRequest(
    Codes.secondaryReadOnly,
    `soa: ${zone.name} is a secondary zone: its SOA comes from its primary by zone transfer and cannot be changed through the API`
  )
}
