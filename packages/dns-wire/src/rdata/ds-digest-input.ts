/**
 * @module What a DS digest covers (RFC 4034 §5.1.4): the owner name in canonical wire form
 * (uncompressed, ASCII lowercased), then the DNSKEY's rdata. One home for the DS the API reports
 * and the CDS a signed zone publishes, whichever hash function each runs it through.
 */
import { TYPE_CODES } from '@edgedns/dns-facts'
import { parseName, writeName } from '../names.ts'
import { ByteWriter } from '../writer.ts'
import { encodeRdata } from './index.ts'

/** The octets a DS digest of the DNSKEY `dnskey` (presentation rdata) at `owner` is taken over. */
export function dsDigestInput(owner: string, dnskey: string): Uint8Array {
  const w = new ByteWriter()
  writeName(w, parseName(owner.toLowerCase()))
  w.bytes(encodeRdata(TYPE_CODES.DNSKEY, dnskey))
  return w.finish()
}
