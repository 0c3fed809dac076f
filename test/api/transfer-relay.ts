/**
 * Helpers of the outgoing-transfer tests: a relayed request to `/dns_transfer` as the DNS front
 * sends it, the length-prefixed messages of its answer, signed AXFR/IXFR/SOA queries, a zone
 * with outgoing transfers configured for one peer (TSIG key) and one ACL, and an AXFR's records
 * as lines, read in pages of a given size.
 */
import { env, exports } from 'cloudflare:workers'
import { decodeMessage, encodeQuery, encodeRdata } from '../../packages/dns-wire/src/index.ts'
import {
  TsigStreamVerifier,
  parseTsigKey,
  signMessage,
} from '../../packages/zone-transfer/src/index.ts'
import { answerRelayedQuery } from '../../workers/api/src/transfers/outgoing-transfer.ts'
import { expect } from 'vitest'
import { api, createZone, DEFAULT_ACCOUNT } from './helpers.ts'
import { configureOutgoing } from './transfer-rows.ts'

const SECRET = 'c2VjcmV0LWZvci10aGUtYXhmci10ZXN0LTMyLW9jdGV0cw=='
export const KEY = parseTsigKey(`hmac-sha256:xfr-key:${SECRET}`)
export const OTHER = parseTsigKey(
  'hmac-sha256:xfr-key:b3RoZXItc2VjcmV0LW9mLXRoaXJ0eS10d28tb2N0ZXRz'
)
export const now = (): number => Math.floor(Date.now() / 1000)

export async function relay(
  query: Uint8Array,
  client = '192.0.2.10',
  headers: Record<string, string> = {}
): Promise<Response> {
  return (exports as any).default.fetch('http://localhost/client/v4/dns_transfer', {
    method: 'POST',
    headers: {
      authorization: 'Bearer dev-token',
      'content-type': 'application/dns-message',
      'x-edgedns-client-address': client,
      ...headers,
    },
    body: query,
  })
}

/** The length-prefixed messages of a relay answer. */
export async function messagesOf(res: Response): Promise<Uint8Array[]> {
  expect(res.status).toBe(200)
  const bytes = new Uint8Array(await res.arrayBuffer())
  const out: Uint8Array[] = []
  for (let at = 0; at < bytes.length;) {
    const length = (bytes[at]! << 8) | bytes[at + 1]!
    out.push(bytes.subarray(at + 2, at + 2 + length))
    at += 2 + length
  }
  return out
}

export const rcode = (m: Uint8Array): number => m[3]! & 0x0f

export const signed = async (
  name: string,
  type: 'AXFR' | 'IXFR' | 'SOA',
  key = KEY,
  soa?: string
) => {
  const query = encodeQuery(name, type, { id: 7, rd: false })
  return signMessage(withAuthority(query, soa), key, { time: now() })
}

/** An IXFR query carries the client's SOA in its authority section. */
function withAuthority(query: Uint8Array, soaOwnerAndRdata?: string): Uint8Array {
  if (!soaOwnerAndRdata) return query
  const [owner, serial] = soaOwnerAndRdata.split(' ') as [string, string]
  const name = owner.split('.').flatMap((l) => [l.length, ...new TextEncoder().encode(l)])
  const rdata = [0, 0, ...u32(Number(serial)), ...u32(0), ...u32(0), ...u32(0), ...u32(0)]
  const rr = [...name, 0, 0, 6, 0, 1, ...u32(0), rdata.length >> 8, rdata.length & 0xff, ...rdata]
  const out = new Uint8Array(query.length + rr.length)
  out.set(query)
  out.set(rr, query.length)
  out[9] = 1 // NSCOUNT
  return out
}
const u32 = (n: number): number[] => [n >>> 24, (n >>> 16) & 0xff, (n >>> 8) & 0xff, n & 0xff]

/** The zone's current SOA serial (from the export's header). */
export async function serialOf(zoneId: string): Promise<number> {
  const text = String((await api('GET', `/zones/${zoneId}/dns_records/export`)).body)
  return Number(/serial (\d+)/.exec(text)![1])
}

export async function zoneWithTransfers(
  rows: Partial<Parameters<typeof configureOutgoing>[0]> = {}
): Promise<{ id: string; name: string }> {
  const zone = await createZone('xfr')
  await configureOutgoing({
    zoneId: zone.id,
    zoneName: zone.name,
    accountId: DEFAULT_ACCOUNT,
    acl: '192.0.2.0/24',
    peer: { ip: '198.51.100.7', key: { name: 'xfr-key', algo: 'hmac-sha256.', secret: SECRET } },
    ...rows,
  })
  return zone
}

/** A record as owner, TTL, type code and the hex of its uncompressed wire rdata. */
export function wireLine(name: string, ttl: number, type: number, rdata: string): string {
  const hex = [...encodeRdata(type, rdata)].map((b) => b.toString(16).padStart(2, '0')).join('')
  return `${name.toLowerCase().replace(/\.$/, '')} ${ttl} ${type} ${hex}`
}

/** The answer records of an AXFR's messages, verified, as `wireLine`s. */
export async function transferredLines(
  messages: Uint8Array[],
  request: { mac: Uint8Array }
): Promise<string[]> {
  const verifier = new TsigStreamVerifier(KEY, request.mac, now)
  const lines: string[] = []
  for (const m of messages)
    for (const rr of decodeMessage(await verifier.next(m)).answer)
      lines.push(wireLine(rr.name, rr.ttl, rr.typeCode, rr.data))
  verifier.finish()
  return lines
}

/**
 * The records (`wireLine`s) of a completed AXFR of zone `name` answered from `shards` (the test
 * environment unless given), read from D1 in pages of `pageSize` records.
 */
export async function pagedLines(
  name: string,
  pageSize: number,
  shards: object = env
): Promise<string[]> {
  const request = await signed(name, 'AXFR')
  // Read from D1 in these pages every time: no packed answer of an earlier read (packed-axfrs.ts).
  const answer = await answerRelayedQuery({ ...shards, TRANSFER_CACHE_MB: '0' } as never, {
    query: request.message,
    client: '192.0.2.10',
    now: now(),
    mayRelay: () => true,
    pageSize,
  })
  const lines = await transferredLines(await messagesOf(new Response(answer.body)), request)
  expect(await answer.completed).toBe(true)
  return lines
}
