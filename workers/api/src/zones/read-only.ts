/**
 * @module Records of a `secondary` zone come from its primary by zone transfer: the Records API
 * reads and exports them but refuses every write (single, batch, import) with one error. So does
 * its SOA: the zone's DNS settings refuse SOA values other than the zone's (the primary's serial is served with the
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

const SOA_COLUMNS = [
  'soaMname',
  'soaRname',
  'soaRefresh',
  'soaRetry',
  'soaExpire',
  'soaMinimum',
  'soaTtl',
] as const

/**
 * A settings change as it applies to `zone`: for a secondary zone, SOA values equal to the zone's
 * are left out (a client writing back the settings it read), and any other is refused.
 */
export function soaGuarded(zone: ZoneRow, set: Partial<ZoneRow>): Partial<ZoneRow> {
  if (zone.type !== 'secondary') return set
  const out = { ...set }
  for (const column of SOA_COLUMNS) {
    if (!(column in out)) continue
    if (out[column] !== zone[column]) {
      throw ApiError.badRequest(
        Codes.secondaryReadOnly,
        `soa: ${zone.name} is a secondary zone: its SOA comes from its primary by zone transfer and cannot be changed through the API`
      )
    }
    delete out[column]
  }
  return out
}
