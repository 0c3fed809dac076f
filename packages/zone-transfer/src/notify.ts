/**
 * @module Answering a NOTIFY (RFC 1996) as a secondary: the message must be a NOTIFY query for one
 * zone; the caller says whether its sender may notify that zone and with which TSIG key (a signed
 * NOTIFY is required when the sender has one, RFC 8945 §5.2 failures answered as such); the answer
 * echoes the question with the same opcode, signed with the request's key.
 */
import { TYPE_CODES } from '@edgedns/dns-facts'
import { DnsFormatError, decodeMessage, encodeResponse, formErrReply } from '@edgedns/dns-wire'
import { signErrorResponse, signMessage, verifyRequest } from './tsig.ts'
import type { TsigKey } from './tsig-key.ts'

export const OPCODE_NOTIFY = 4
const NOTAUTH = 9

/** Whom a NOTIFY for `zone` is accepted from: null refuses it; `key` null accepts it unsigned. */
export type NotifyPolicy = (zone: string) => Promise<{ key: TsigKey | null } | null>

export interface NotifyOutcome {
  /** The zone notified (lowercase, no trailing dot), when the message named one. */
  zone: string | null
  /** True when the NOTIFY was accepted: the zone should check its primary now. */
  accepted: boolean
  /** The answer to send back; null when the message is not even a readable header. */
  response: Uint8Array | null
}

/** True when `message` is a NOTIFY query (header opcode 4, QR clear). */
export function isNotify(message: Uint8Array): boolean {
  return message.length >= 12 && (message[2]! & 0x80) === 0 && ((message[2]! >> 3) & 0xf) === 4
}

export async function answerNotify(
  request: Uint8Array,
  policy: NotifyPolicy,
  now: number
): Promise<NotifyOutcome> {
  let message
  try {
    message = decodeMessage(request)
  } catch (err) {
    if (!(err instanceof DnsFormatError)) throw err
    return { zone: null, accepted: false, response: err.header ? formErrReply(err.header) : null }
  }
  const q = message.question[0]
  const question = q ? { name: q.name, type: q.typeCode, class: q.class } : null
  const reply = (rcode: number | 'FORMERR' | 'REFUSED' | 'NOERROR') =>
    encodeResponse({ id: message.id, opcode: message.opcode, rcode, aa: true, question })
  if (
    message.opcode !== OPCODE_NOTIFY ||
    !q ||
    message.question.length !== 1 ||
    q.typeCode !== TYPE_CODES.SOA
  )
    return { zone: null, accepted: false, response: reply('FORMERR') }
  const zone = q.name.toLowerCase().replace(/\.$/, '')
  const allowed = await policy(zone)
  if (!allowed) return { zone, accepted: false, response: reply('REFUSED') }
  if (!allowed.key) return { zone, accepted: true, response: reply('NOERROR') }
  const verdict = await verifyRequest(request, [allowed.key], now)
  if (verdict.status === 'unsigned') return { zone, accepted: false, response: reply('REFUSED') }
  if (verdict.status === 'error')
    return {
      zone,
      accepted: false,
      response: await signErrorResponse(reply(NOTAUTH), verdict, now),
    }
  const signed = await signMessage(reply('NOERROR'), allowed.key, {
    time: now,
    previousMac: verdict.tsig.mac,
  })
  return { zone, accepted: true, response: signed.message }
}
