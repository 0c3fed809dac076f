/**
 * @module NOTIFY (RFC 1996) as a primary sends it: the request (opcode NOTIFY, AA, the zone's SOA
 * question and the new SOA in the answer section) and the reading of the secondary's reply.
 */
import { CLASSES, TYPE_CODES } from '@edgedns/dns-facts'
import { DnsFormatError, decodeMessage, encodeResponse, type ResponseRR } from '@edgedns/dns-wire'

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
