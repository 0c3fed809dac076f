/** The fake public DNS and small helpers the zone ownership scenarios share. */
import { env, exports } from 'cloudflare:workers'
import { expect } from 'vitest'
import type { OwnershipResolver } from '../../workers/api/src/zones/resolver.ts'
import { api, type ApiResponse } from './helpers.ts'

/** What the fake public DNS says: TXT strings and delegations by name. */
export class FakeDns implements OwnershipResolver {
  readonly txts = new Map<string, string[]>()
  readonly delegations = new Map<string, string[]>()
  /** Runs once, at the next TXT lookup: something that happens while a check asks the DNS. */
  onLookup: (() => Promise<void>) | undefined
  async txt(name: string): Promise<string[]> {
    const hook = this.onLookup
    this.onLookup = undefined
    if (hook) await hook()
    return this.txts.get(name) ?? []
  }
  async nameServers(name: string): Promise<string[]> {
    return this.delegations.get(name) ?? []
  }
}

let counter = 0
export const uniqueName = (prefix: string): string =>
  `${prefix}-${Date.now().toString(36)}-${counter++}.example`

export async function newAccount(): Promise<string> {
  const res = await api('POST', '/accounts', { name: `owner-${counter++}` })
  expect(res.status).toBe(200)
  return res.body.result.id
}

/** The envelope's `messages` (the activation check's verdict travels there). */
export const messages = (res: ApiResponse): { code: number; message: string }[] =>
  (res.body as unknown as { messages: { code: number; message: string }[] }).messages

export async function dohStatus(
  name: string,
  type = 'A'
): Promise<{ Status: number; Answer?: any[] }> {
  const res = await (exports as any).default.fetch(
    `http://localhost/dns-query?name=${name}&type=${type}`,
    { headers: { accept: 'application/dns-json' } }
  )
  return (await res.json()) as { Status: number; Answer?: any[] }
}

export const REFUSED = 5

/** The zone's standing in the shard directory (the platform-wide record of who holds a name). */
export async function directoryStatus(zoneId: string): Promise<string | undefined> {
  const row = await env.DB.prepare('SELECT status FROM directory_zones WHERE zone_id = ?1')
    .bind(zoneId)
    .first<{ status: string }>()
  return row?.status
}

/** What a zone's row on its shard is made to say, as another writer would leave it. */
export async function setZoneStatus(zoneId: string, status: string): Promise<void> {
  await env.DB.prepare('UPDATE zones SET status = ?2, version = version + 1 WHERE id = ?1')
    .bind(zoneId, status)
    .run()
}
