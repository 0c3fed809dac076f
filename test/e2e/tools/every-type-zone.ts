/**
 * The every-type zone of the transfer and DNSSEC e2e tests, made as a user would: a zone of the
 * stack's first account, filled by importing the zone file of every record type
 * (test/api/import-export-fixture.ts).
 */
import { inject } from 'vitest'
import { everyTypeZone } from '../../api/import-export-fixture.ts'
import { stackApi } from './stack-api.ts'

export interface EveryTypeZone {
  accountId: string
  zoneId: string
  /** The import's HTTP status and its `recs_added`, for the test to check. */
  imported: { status: number; recsAdded: number | undefined }
}

/**
 * Zone `name` created and its every-type zone file (or `file`, another one) imported
 * (`POST …/dns_records/import`).
 */
export async function createEveryTypeZone(
  name: string,
  file = everyTypeZone(name)
): Promise<EveryTypeZone> {
  const [account] = (await stackApi('GET', '/accounts')).result
  const zoneId: string = (await stackApi('POST', '/zones', { name, account: { id: account.id } }))
    .result.id
  const form = new FormData()
  form.append('file', new Blob([file]), 'zone.txt')
  const res = await fetch(`${inject('stackBase')}/client/v4/zones/${zoneId}/dns_records/import`, {
    method: 'POST',
    headers: { authorization: `Bearer ${inject('stackToken')}` },
    body: form,
  })
  const body = (await res.json().catch(() => ({}))) as any
  return {
    accountId: account.id,
    zoneId,
    imported: { status: res.status, recsAdded: body?.result?.recs_added },
  }
}
