/**
 * @module The bench's DNS messages, built and read by the project's one wire codec
 * (`packages/dns-wire`, TypeScript loaded by Node's type stripping): a query (RFC 1035, optional
 * EDNS OPT) base64url'd for RFC 8484 GET, and a response's rcode, flags and counts.
 */
import {
  decodeMessage,
  encodeQuery as encodeWire,
  rcodeName,
} from '../../packages/dns-wire/src/index.ts'

/** Wire-format query for `name`/`type` with id 0 (RFC 8484 §4.1 recommends id 0 for caching), RD, EDNS payload 1232 (DO bit when `dnssecOk`). */
export function encodeQuery(name, type = 'A', { edns = true, dnssecOk = false } = {}) {
  return Buffer.from(
    encodeWire(name, type, {
      edns: edns ? { payload: 1232, ...(dnssecOk ? { do: true } : {}) } : null,
    })
  )
}

export const base64url = (buf) => Buffer.from(buf).toString('base64url')

/** The RFC 8484 GET path of a query. */
export const wirePath = (name, type = 'A') => `/dns-query?dns=${base64url(encodeQuery(name, type))}`

/** Header fields of a wire response. */
export function parseHeader(buf) {
  const m = decodeMessage(new Uint8Array(buf))
  return {
    id: m.id,
    aa: m.aa,
    rcode: rcodeName(m.rcode),
    qd: m.question.length,
    an: m.answer.length,
    ns: m.authority.length,
    ar: m.additional.length + (m.opt ? 1 : 0),
  }
}
