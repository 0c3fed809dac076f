/**
 * Helpers of the catalog zone tests: a fresh account with a peer signing with cat-key, zones in it
 * (members when their outgoing transfers are enabled), and a signed AXFR of a catalog through
 * `/dns_transfer` or straight through `answerRelayedQuery` (with another environment's D1).
 */
import { env } from 'cloudflare:workers'
import { decodeMessage, encodeQuery, type MessageRR } from '../../packages/dns-wire/src/index.ts'
import { parseTsigKey, signMessage } from '../../packages/zone-transfer/src/index.ts'
import { expect } from 'vitest'
import { answerRelayedQuery } from '../../workers/api/src/transfers/outgoing-transfer.ts'
import { api } from './helpers.ts'
import { SECRET, unique } from './secondary-dns-helpers.ts'
import { messagesOf, relay as relayRequest } from './transfer-relay.ts'

export const KEY = parseTsigKey(`hmac-sha256:cat-key:${SECRET}`)
export const now = (): number => Math.floor(Date.now() / 1000)

export async function ok(method: string, path: string, body?: unknown): Promise<any> {
  const res = await api(method, path, body)
  expect(res.body.errors, `${method} ${path}`).toEqual([])
  return res.body.result
}

/** A fresh account (its own membership), with a peer at 192.0.2.53 signing with cat-key. */
export async function account(): Promise<{ id: string; base: string; peer: string }> {
  const id = (await ok('POST', '/accounts', { name: unique('catalog-account') })).id as string
  const base = `/accounts/${id}/secondary_dns`
  const tsig = await ok('POST', `${base}/tsigs`, {
    name: 'cat-key',
    algo: 'hmac-sha256.',
    secret: SECRET,
  })
  const peer = (await ok('POST', `${base}/peers`, { name: 'bind' })).id as string
  await ok('PUT', `${base}/peers/${peer}`, { name: 'bind', ip: '192.0.2.53', tsig_id: tsig.id })
  return { id, base, peer }
}

/** A zone of the account, a member when `outgoing` (its outgoing transfers set up and enabled). */
export async function zoneIn(accountId: string, outgoing: boolean, peer: string) {
  const name = `${unique('member')}.example`
  const id = (await ok('POST', '/zones', { name, account: { id: accountId } })).id as string
  if (outgoing) {
    await ok('POST', `/zones/${id}/secondary_dns/outgoing`, { name, peers: [peer] })
    await ok('POST', `/zones/${id}/secondary_dns/outgoing/enable`)
  }
  return { id, name }
}

export async function relay(query: Uint8Array, client = '192.0.2.53'): Promise<Uint8Array[]> {
  return messagesOf(await relayRequest(query, client))
}

const signedAxfr = async (catalog: string): Promise<Uint8Array> =>
  (await signMessage(encodeQuery(catalog, 'AXFR', { id: 3, rd: false }), KEY, { time: now() }))
    .message

const recordsOf = (messages: Uint8Array[]): MessageRR[] => {
  expect(messages[0]![3]! & 0x0f).toBe(0)
  return messages.flatMap((m) => decodeMessage(m).answer.filter((rr) => rr.type !== 'TSIG'))
}

/** The records of a signed AXFR of the catalog, in order. */
export async function axfr(catalog: string): Promise<MessageRR[]> {
  return recordsOf(await relay(await signedAxfr(catalog)))
}

/**
 * A signed AXFR of the catalog answered from `shards` (the test environment unless given), its
 * members in joined strings of `pageSize`: its records, and whether it completed.
 */
export async function axfrFrom(
  catalog: string,
  shards: object = env,
  pageSize?: number
): Promise<{ records: MessageRR[]; completed: boolean }> {
  const answer = await answerRelayedQuery(shards as never, {
    query: await signedAxfr(catalog),
    client: '192.0.2.53',
    now: now(),
    mayRelay: () => true,
    ...(pageSize ? { pageSize } : {}),
  })
  const records = recordsOf(await messagesOf(new Response(answer.body)))
  return { records, completed: await answer.completed }
}

export const serialOf = (records: MessageRR[]): number => Number(records[0]!.data.split(' ')[2])

/** The PTR records' names and targets. */
export const ptrs = (records: MessageRR[]): [string, string][] =>
  records.filter((r) => r.type === 'PTR').map((r) => [r.name, r.data])
