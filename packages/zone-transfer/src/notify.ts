/**
 * @module NOTIFY (RFC 1996) from both sides. As a primary: the request (opcode NOTIFY, AA, the
 * zone's SOA question and the new SOA in the answer section) and the reading of the secondary's
 * reply. As a secondary: answering one — the message must be a NOTIFY query for one zone; the
 * caller says whether its sender may notify that zone and with which TSIG key (a signed NOTIFY is
 * required when the sender has one, RFC 8945 §5.2 failures answered as such); the answer echoes
 * the question with the same opcode, signed with the request's key.
 */
import { CLASSES, TYPE_CODES } from '@edgedns/dns-facts'
import {
  DnsFormatError,
  decodeMessage,
  encodeResponse,
  formErrReply,
  type ResponseRR,
} from '@edgedns/dns-wire'
import { signErrorResponse, signMessage, verifyRequest } from './tsig.ts'
import type { TsigKey } from './tsig-key.ts'

/** The NOTIFY opcode. */
export const OPCODE_NOTIFY = 4

/** A NOTIFY request for the zone whose SOA is `soa` (its owner is the zone's name). */
export function notifyMessage(id: number, soa: ResponseRR): Uint8Array {
  if (soa.type !== TYPE_CODES.SOA) throw new RangeError('a NOTIFY carries the zone SOA')
  const message = encodeResponse({
    id,
    opcode: OPCODE_NOTIFY,
    rcode: 0,
    aa: true,
    question: { name: soa.name, type: TYPE_CODES.SOA, class: CLASSES.IN },
    answer: [soa],
  })
  // encodeResponse writes a response: clear QR, this is a request.
  message[2] = message[2]! & 0x7f
  return message
}

export interface NotifyReply {
  id: number
  rcode: number
}

/**
 * The secondary's reply to a NOTIFY: its ID and RCODE. Throws DnsFormatError when it is not a
 * NOTIFY response (QR clear, another opcode) or unreadable.
 */
export function parseNotifyReply(reply: Uint8Array): NotifyReply {
  const message = decodeMessage(reply)
  if ((reply[2]! & 0x80) === 0 || message.opcode !== OPCODE_NOTIFY) {
    throw new DnsFormatError('not a NOTIFY response')
  }
  return { id: message.id, rcode: reply[3]! & 0x0f }
}

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
  let verdict
  try {
    verdict = await verifyRequest(request, [allowed.key], now)
  } catch (err) {
    // A TSIG record that is malformed, misplaced or not of class ANY: the message is, too.
    if (!(err instanceof DnsFormatError)) throw err
    return { zone, accepted: false, response: reply('FORMERR') }
  }
  if (verdict.status === 'unsigned') return { zone, accepted: false, response: reply('REFUSED') }
  if (verdict.status === 'error')
    return {
      zone,
      accepted: false,
      response: await signErrorResponse(reply(verdict.error.rcode), verdict, now),
    }
  const signed = await signMessage(reply('NOERROR'), allowed.key, {
    time: now,
    previousMac: verdict.tsig.mac,
  })
  return { zone, accepted: true, response: signed.message }
}
