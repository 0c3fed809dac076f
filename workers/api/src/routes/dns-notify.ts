/**
 * @module POST /dns_notify (a token with Zone Transfer Relay: the DNS front's): a NOTIFY message the front
 * received, base64 in `message`, with the sender's address in `client_ip`; answers with the
 * NOTIFY response for the front to send back (base64 `message`, null when there is nothing to
 * send). See transfers/notify-accept.ts for when a NOTIFY is accepted.
 */
import { HEADER_BYTES, MAX_MESSAGE } from '@edgedns/dns-wire'
import { Hono } from 'hono'
import { z } from 'zod'
import { allows, mayRelayForFront } from '../auth/permissions.ts'
import { ApiError, Codes } from '../http/api-error.ts'
import type { AppEnv } from '../http/app-env.ts'
import { readBody } from '../http/body.ts'
import { ok } from '../http/envelope.ts'
import { acceptNotify } from '../transfers/notify-accept.ts'
import { isClientAddress } from '../transfers/transfer-config.ts'

/** Octets the base64 text `text` decodes to. */
const decodedLength = (text: string): number =>
  (text.length / 4) * 3 - (text.endsWith('==') ? 2 : text.endsWith('=') ? 1 : 0)

export const dnsNotifySchema = z
  .object({
    client_ip: z
      .string()
      .max(64)
      .refine(isClientAddress, "must be the sender's IPv4 or IPv6 address"),
    message: z
      .base64()
      .max(90_000)
      .refine(
        (text) => decodedLength(text) >= HEADER_BYTES && decodedLength(text) <= MAX_MESSAGE,
        `must be one DNS message of ${HEADER_BYTES} to ${MAX_MESSAGE} octets, base64`
      ),
  })
  .strict()

export const dnsNotifyApp = new Hono<AppEnv>()

const toBase64 = (bytes: Uint8Array) => btoa(String.fromCharCode(...bytes))
const fromBase64 = (text: string) => Uint8Array.from(atob(text), (ch) => ch.charCodeAt(0))

dnsNotifyApp.post('/', async (c) => {
  if (!mayRelayForFront(c.var.principal))
    throw new ApiError(
      403,
      Codes.unauthenticated,
      'Authentication error: relaying NOTIFY messages needs a token with Zone Transfer Relay'
    )
  const body = await readBody(c, dnsNotifySchema)
  const principal = c.var.principal
  const answer = await acceptNotify(c.env, fromBase64(body.message), body.client_ip, (scope) =>
    allows(principal, 'dns:transfer', scope)
  )
  return ok(c, { message: answer ? toBase64(answer) : null })
})
