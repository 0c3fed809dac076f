/**
 * @module What a zone's incoming and outgoing configurations share: the zone-type rule, the
 * statement guard that every peer named is a peer of the zone's account, and their errors.
 */
import { ApiError, Codes } from '../http/api-error.ts'
import type { ZoneRow } from '../zones/model.ts'

export type Direction = 'incoming' | 'outgoing'

/** Whether a zone of this type is a primary (`full`, `partial`): the zones outgoing transfers serve. */
export const isPrimaryType = (type: string): boolean => type === 'full' || type === 'partial'

/** Incoming transfers fill a `secondary` zone; outgoing ones serve a primary. */
export function assertZoneType(zone: ZoneRow, direction: Direction): void {
  const ok = direction === 'incoming' ? zone.type === 'secondary' : isPrimaryType(zone.type)
  if (ok) return
  throw ApiError.badRequest(
    Codes.transferZoneType,
    direction === 'incoming'
      ? `Incoming transfers are configured on secondary zones only; ${zone.name} is of type ${zone.type}`
      : `Outgoing transfers are configured on primary zones (type full or partial) only; ${zone.name} is of type ${zone.type}`
  )
}

export function settingsNotFound(zone: ZoneRow, direction: Direction): ApiError {
  return new ApiError(
    404,
    Codes.transferSettingsNotFound,
    `Zone ${zone.name} has no ${direction} transfer configuration`
  )
}

export function settingsExist(zone: ZoneRow, direction: Direction): ApiError {
  return ApiError.badRequest(
    Codes.transferSettingsExist,
    `Zone ${zone.name} already has an ${direction} transfer configuration; change it with PUT`
  )
}

/**
 * SQL true when every id of the JSON list `?{list}` is a peer of account `?{account}`: the
 * guard of the statement that stores the list, so a peer deleted meanwhile is never named.
 */
export function peersExistSql(list: number, account: number): string {
  return `(SELECT count(*) FROM transfer_peers WHERE account_id = ?${account}
      AND id IN (SELECT value FROM json_each(?${list}))) = json_array_length(?${list})`
}

/** The 400 for a list with an id that is no peer of the account (read after the guard failed). */
export async function unknownPeers(
  db: D1Database,
  zone: ZoneRow,
  ids: string[]
): Promise<ApiError> {
  const { results } = await db
    .prepare(
      'SELECT id FROM transfer_peers WHERE account_id = ?1 AND id IN (SELECT value FROM json_each(?2))'
    )
    .bind(zone.accountId, JSON.stringify(ids))
    .all<{ id: string }>()
  const known = new Set(results.map((r) => r.id))
  const missing = ids.filter((id) => !known.has(id))
  return ApiError.badRequest(
    Codes.transferReference,
    `peers: ${missing.join(', ') || ids.join(', ')} ${missing.length === 1 ? 'is not a peer' : 'are not peers'} of this account`
  )
}

/** The zone name a configuration is given must be the zone's own (any case, final dot or not). */
export function assertZoneName(zone: ZoneRow, name: string): void {
  if (name === zone.name) return
  throw ApiError.badRequest(
    Codes.invalidRequest,
    `name: ${JSON.stringify(name)} is not this zone's name (${zone.name})`
  )
}
