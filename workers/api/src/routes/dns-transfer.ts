/**
 * @module The transfer relay of DNS fronts (not a Cloudflare route):
 *   POST /dns_transfer  body: one DNS query (`application/dns-message`), header
 *   `x-edgedns-client-address`: the secondary's address (and `x-edgedns-client-transport: udp`
 *   for a query that came over UDP) → the answer messages, each with its two-octet TCP length
 *   prefix (`application/octet-stream`), streamed.
 * A front that accepts AXFR/IXFR over TCP (and TSIG-signed queries, a secondary's SOA check) sends
 * them here with a token holding Zone Transfer Relay (`dns:transfer`); the worker checks the zone's
 * outgoing settings, the client address and TSIG (transfers/outgoing-transfer.ts). DNS-level
 * refusals are DNS answers (REFUSED, NOTAUTH with the TSIG error, FORMERR); only a bad HTTP request
 * is an API error. A completed transfer's time is written to the zone's outgoing settings shortly
 * after, together with the other transfers this isolate completed meanwhile.
 */
import { HEADER_BYTES, MAX_MESSAGE } from '@edgedns/dns-wire'
import { Hono } from 'hono'
import { allows, mayRelayForFront } from '../auth/permissions.ts'
import { ApiError, Codes } from '../http/api-error.ts'
import type { AppEnv } from '../http/app-env.ts'
import { nowIso } from '../http/ids.ts'
import { answerRelayedQuery } from '../transfers/outgoing-transfer.ts'
import { isClientAddress } from '../transfers/transfer-config.ts'
import { TransferStamps } from '../transfers/transfer-stamps.ts'

export const dnsTransferApp = new Hono<AppEnv>()

/** The completed transfers of this isolate, stamped in batches (transfers/transfer-stamps.ts). */
const transferStamps = new TransferStamps()

/** The header a front puts the secondary's address in. */
const CLIENT_ADDRESS_HEADER = 'x-edgedns-client-address'
/** The header a front puts the transport the query came over in: `tcp` (default) or `udp`. */
const TRANSPORT_HEADER = 'x-edgedns-client-transport'

dnsTransferApp.post('/', async (c) => {
  const principal = c.var.principal
  if (!mayRelayForFront(principal)) {
    throw new ApiError(
      403,
      Codes.unauthenticated,
      'Authentication error: relaying zone transfers needs a token with Zone Transfer Relay'
    )
  }
  const type = (c.req.header('content-type') ?? '').split(';')[0]!.trim().toLowerCase()
  if (type !== 'application/dns-message') {
    throw ApiError.badRequest(
      Codes.invalidHeaders,
      'The body of /dns_transfer is one DNS query: Content-Type must be application/dns-message'
    )
  }
  const client = c.req.header(CLIENT_ADDRESS_HEADER) ?? ''
  if (!isClientAddress(client)) {
    throw ApiError.badRequest(
      Codes.invalidHeaders,
      `${CLIENT_ADDRESS_HEADER} must be the secondary's IPv4 or IPv6 address`
    )
  }
  const transport = (c.req.header(TRANSPORT_HEADER) ?? 'tcp').trim().toLowerCase()
  if (transport !== 'tcp' && transport !== 'udp') {
    throw ApiError.badRequest(Codes.invalidHeaders, `${TRANSPORT_HEADER} must be tcp or udp`)
  }
  const query = new Uint8Array(await c.req.arrayBuffer())
  if (query.length < HEADER_BYTES || query.length > MAX_MESSAGE) {
    throw ApiError.badRequest(
      Codes.validation,
      `The body must be one DNS message of ${HEADER_BYTES} to ${MAX_MESSAGE} octets; got ${query.length}`
    )
  }
  const answer = await answerRelayedQuery(c.env, {
    query,
    client,
    now: Math.floor(Date.now() / 1000),
    udp: transport === 'udp',
    mayRelay: (zone) =>
      allows(principal, 'dns:transfer', { accountId: zone.accountId, zoneId: zone.id }),
  })
  const { zoneId, db } = answer
  if (zoneId && db) {
    const background = (work: Promise<unknown>) => c.executionCtx.waitUntil(work)
    c.executionCtx.waitUntil(
      answer.completed.then((ok) => {
        if (ok) transferStamps.record(db, zoneId, nowIso(), background)
      })
    )
  }
  return new Response(answer.body, {
    headers: { 'content-type': 'application/octet-stream', 'cache-control': 'no-store' },
  })
})
