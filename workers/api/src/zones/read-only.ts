/**
 * @module Records of a `secondary` zone come from its primary by zone transfer: the Records API
 * reads and exports them but refuses every write (single, batch, import) with one error.
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
