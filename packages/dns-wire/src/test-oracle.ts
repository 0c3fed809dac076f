/**
 * @module Test helper: decode our wire output with dns-packet as an independent oracle.
 */
import packet from 'dns-packet'
import { encodeResponse, type ResponseRR } from './response.ts'

/** dns-packet's decoded message plus the fields its types leave out (rcode, opcode, data). */
export type Decoded = packet.DecodedPacket & {
  rcode: string
  opcode: string
  answers?: (packet.Answer & { data?: unknown })[]
}

export function decodeWithDnsPacket(bytes: Uint8Array): Decoded {
  return packet.decode(Buffer.from(bytes)) as Decoded
}

/** Encodes one record in a response and returns dns-packet's view of its rdata. */
export function roundTrip(type: number, rdata: string, name = 'example.com'): unknown {
  const rr: ResponseRR = { name, type, ttl: 60, rdata }
  const bytes = encodeResponse({ id: 1, rcode: 0, answer: [rr] })
  const answer = decodeWithDnsPacket(bytes).answers?.[0] as { data: unknown } | undefined
  return answer?.data
}

export const hexOf = (b: Uint8Array): string => Buffer.from(b).toString('hex')
