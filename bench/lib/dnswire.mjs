/**
 * @module Just enough DNS wire format for load generation: encode a query (RFC 1035, optional
 * EDNS OPT), base64url it for RFC 8484 GET, and read a response's rcode, flags and counts.
 */

const TYPES = { A: 1, NS: 2, CNAME: 5, SOA: 6, MX: 15, TXT: 16, AAAA: 28 }

/** Wire-format query for `name`/`type` with id 0 (RFC 8484 §4.1 recommends id 0 for caching). */
export function encodeQuery(name, type = 'A', { edns = true } = {}) {
  const labels = name.replace(/\.$/, '').split('.').filter(Boolean)
  const qname = []
  for (const label of labels) {
    const bytes = Buffer.from(label, 'ascii')
    qname.push(bytes.length, ...bytes)
  }
  qname.push(0)
  const header = [0, 0, 0x01, 0x00, 0, 1, 0, 0, 0, 0, 0, edns ? 1 : 0]
  const qtype = TYPES[type] ?? Number(type)
  const question = [...qname, qtype >> 8, qtype & 255, 0, 1]
  // OPT: root name, type 41, UDP payload 1232, no extended rcode/flags, no options.
  const opt = edns ? [0, 0, 41, 0x04, 0xd0, 0, 0, 0, 0, 0, 0] : []
  return Buffer.from([...header, ...question, ...opt])
}

export const base64url = (buf) => Buffer.from(buf).toString('base64url')

/** The RFC 8484 GET path of a query. */
export const wirePath = (name, type = 'A') => `/dns-query?dns=${base64url(encodeQuery(name, type))}`

/** The JSON API path of a query (needs `accept: application/dns-json`). */
export const jsonPath = (name, type = 'A') => `/dns-query?name=${encodeURIComponent(name)}&type=${type}`

export const RCODES = ['NOERROR', 'FORMERR', 'SERVFAIL', 'NXDOMAIN', 'NOTIMP', 'REFUSED']

/** Header fields of a wire response. */
export function parseHeader(buf) {
  const b = Buffer.from(buf)
  if (b.length < 12) throw new Error(`short DNS response (${b.length} bytes)`)
  return {
    id: b.readUInt16BE(0),
    aa: (b[2] & 0x04) !== 0,
    rcode: RCODES[b[3] & 0x0f] ?? String(b[3] & 0x0f),
    qd: b.readUInt16BE(4),
    an: b.readUInt16BE(6),
    ns: b.readUInt16BE(8),
    ar: b.readUInt16BE(10),
  }
}
