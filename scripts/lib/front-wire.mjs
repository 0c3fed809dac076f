/**
 * @module The few byte-level edits the DNS front makes to DNS messages without decoding them: the
 * end of the question, the EDNS of a message, a truncated copy of an answer (TC), a SERVFAIL for a
 * query (both with an OPT record when the query had one), and a cached answer made to fit a new
 * query (its ID, flags and question spelling).
 */
import { OUR_UDP_PAYLOAD, decodeQuery } from '../../packages/dns-wire/src/index.ts'

/**
 * Offset just past the first question of `message` (12 when it has none), or -1 when that question
 * cannot be read: a label over 63 octets or of another type (a first name has nothing before it to
 * point to), a name over 255 octets, or a question cut short. Such a question is never copied into
 * an answer: the sender would get its own bytes back, up to a datagram's worth.
 */
function questionEnd(message) {
  if (message.length < 12 || message.readUInt16BE(4) === 0) return 12
  let at = 12
  while (at < message.length && at - 12 < 255) {
    const len = message[at]
    if (len === 0) return at + 5 <= message.length ? at + 5 : -1
    if (len > 63) return -1
    at += len + 1
  }
  return -1
}

/**
 * The question of an ordinary query, read straight from its bytes: `key` (the question's wire
 * form with ASCII letters lower-cased, its type and class, and whether it has an OPT record and
 * with the DO bit: an answer has an OPT exactly when its query had one, RFC 6891 §6.1.1 and §7),
 * `type` (the question's), `end` (offset past the question), `udpLimit` (the largest UDP
 * answer, `udpPayloadLimit`) and `padded` (its OPT holds the Padding option). Null for
 * anything else (a response, another opcode, not one question, records besides one OPT, an EDNS
 * version other than 0, which is answered BADVERS, malformed): such a message is neither cached
 * nor answered from the cache.
 */
export function readQuestion(m) {
  if (m.length < 17 || (m[2] & 0xf8) !== 0 || m.readUInt16BE(4) !== 1) return null
  if (m.readUInt16BE(6) !== 0 || m.readUInt16BE(8) !== 0 || m.readUInt16BE(10) > 1) return null
  let at = 12
  while (m[at] !== 0) {
    if (m[at] > 63) return null
    at += m[at] + 1
    if (at >= m.length) return null
  }
  const end = at + 5
  if (end > m.length) return null
  const name = Buffer.from(m.subarray(12, at))
  for (let i = 0; i < name.length; i++) if (name[i] >= 0x41 && name[i] <= 0x5a) name[i] |= 0x20
  // The key's last part: no OPT record, an OPT with DO clear, an OPT with DO set.
  let edns = 'none'
  let limit = 512
  let padded = false
  if (m.readUInt16BE(10) === 1) {
    // The one additional record must be an OPT (root owner, type 41) filling the message.
    if (end + 11 > m.length || m[end] !== 0 || m.readUInt16BE(end + 1) !== 41) return null
    if (end + 11 + m.readUInt16BE(end + 9) !== m.length) return null
    if (m[end + 6] !== 0) return null // EDNS version
    limit = udpPayloadLimit(m.readUInt16BE(end + 3))
    edns = (m[end + 7] & 0x80) !== 0 ? 'do' : 'edns'
    padded = hasPadding(m, end + 11, m.length)
  } else if (end !== m.length) return null
  const type = m.readUInt16BE(at + 1)
  const question = `${name.toString('latin1')}/${type}/${m.readUInt16BE(at + 3)}`
  return { question, key: `${question}/${edns}`, type, end, udpLimit: limit, padded }
}

/**
 * The largest UDP answer to a query offering `payload` octets: at least 512 (RFC 6891 §6.2.3), and
 * at most our own payload size (OUR_UDP_PAYLOAD, 1,232), whatever the client offers, as BIND's
 * `max-udp-size`: a small query must not draw a large datagram onto an address it may have
 * forged, and fragmented UDP is what DNS Flag Day 2020 retired. A larger answer goes out TC.
 */
const udpPayloadLimit = (payload) => Math.min(OUR_UDP_PAYLOAD, Math.max(512, payload))

/** Whether the EDNS options from `at` to `end` of `m` hold a Padding option (code 12). */
function hasPadding(m, at, end) {
  while (at + 4 <= end) {
    if (m.readUInt16BE(at) === 12) return true
    at += 4 + m.readUInt16BE(at + 2)
  }
  return false
}

/**
 * `query` (whose one record, an OPT, starts at `end`: readQuestion's) without its Padding options:
 * what the front asks the DoH endpoint, so that the answer is not padded. Padding hides lengths
 * on an encrypted transport; over plain DNS it only makes a small query draw a larger answer,
 * and may push one past the client's UDP size (RFC 7830 §6 advises against it).
 */
export function withoutPadding(query, end) {
  const kept = []
  for (let at = end + 11; at + 4 <= query.length;) {
    const next = at + 4 + query.readUInt16BE(at + 2)
    if (query.readUInt16BE(at) !== 12) kept.push(query.subarray(at, next))
    at = next
  }
  const out = Buffer.concat([query.subarray(0, end + 11), ...kept])
  out.writeUInt16BE(out.length - end - 11, end + 9)
  return out
}

/** The query's UDP answer limit (`udpPayloadLimit`); 512 without an OPT record (or unreadable). */
export function udpLimit(query) {
  try {
    return udpPayloadLimit(decodeQuery(query).edns?.udpPayloadSize ?? 512)
  } catch {
    return 512
  }
}

/** Offset past the name at `at` in `m`, or -1 when it is malformed or runs past the message. */
function nameEnd(m, at) {
  while (at < m.length) {
    const len = m[at]
    if (len === 0) return at + 1
    if ((len & 0xc0) === 0xc0) return at + 2
    if (len > 63) return -1
    at += len + 1
  }
  return -1
}

/**
 * The EDNS of a message: its OPT record's `extendedRcode` (the rcode's upper bits), `version` and
 * DO bit (`dnssecOk`); null when it has none in its additional section, or its records cannot be
 * read that far.
 */
function ednsOf(m) {
  if (m.length < 12) return null
  let at = 12
  for (let i = m.readUInt16BE(4); i > 0; i--) {
    at = nameEnd(m, at)
    if (at < 0 || at + 4 > m.length) return null
    at += 4
  }
  const before = m.readUInt16BE(6) + m.readUInt16BE(8)
  const records = before + m.readUInt16BE(10)
  for (let i = 0; i < records; i++) {
    at = nameEnd(m, at)
    if (at < 0 || at + 10 > m.length) return null
    if (i >= before && m.readUInt16BE(at) === 41)
      return { extendedRcode: m[at + 4], version: m[at + 5], dnssecOk: (m[at + 6] & 0x80) !== 0 }
    at += 10 + m.readUInt16BE(at + 8)
  }
  return null
}

/**
 * `out` (a header and question, no records) with an OPT record added when `query` had one, as
 * RFC 6891 §6.1.1 asks of every answer to such a query: version 0, our UDP payload size, the
 * query's DO bit (as the DoH endpoint's answers echo it) and the upper bits of `rcode`.
 */
function withOpt(out, query, rcode) {
  const edns = ednsOf(query)
  if (!edns) return out
  const opt = Buffer.alloc(11)
  opt.writeUInt16BE(41, 1)
  opt.writeUInt16BE(OUR_UDP_PAYLOAD, 3)
  opt[5] = rcode >> 4
  opt[7] = edns.dnssecOk ? 0x80 : 0
  out.writeUInt16BE(1, 10)
  return Buffer.concat([out, opt])
}

/**
 * Header and question of `answer` (to `query`) with TC set and no records (RFC 2181 §9), but an
 * OPT record when `query` had one: the minimal truncated answer of RFC 6891 §7.
 */
export function truncated(answer, query) {
  const end = questionEnd(answer)
  const out = Buffer.from(answer.subarray(0, end < 0 ? 12 : end))
  if (end < 0) out.writeUInt16BE(0, 4)
  out[2] |= 0x02
  out.writeUInt16BE(0, 6)
  out.writeUInt16BE(0, 8)
  out.writeUInt16BE(0, 10)
  return withOpt(out, query, ((ednsOf(answer)?.extendedRcode ?? 0) << 4) | (answer[3] & 0x0f))
}

/**
 * An answer the front makes itself to `query`: its ID, opcode, RD and CD, its question, `rcode`,
 * no records but an OPT record when the query had one. A question that cannot be read is not
 * echoed, and the answer is FORMERR (as BIND's). Null for a message shorter than a header.
 */
function ownAnswer(query, rcode) {
  if (query.length < 12) return null
  const end = questionEnd(query)
  if (end < 0) rcode = 1
  const out = Buffer.from(query.subarray(0, end < 0 ? 12 : end))
  out[2] = 0x80 | (out[2] & 0x79) // QR, the query's opcode and RD; AA and TC clear
  out[3] = (out[3] & 0x10) | (rcode & 0x0f) // the query's CD
  out.writeUInt16BE(out.length > 12 ? 1 : 0, 4)
  out.writeUInt16BE(0, 6)
  out.writeUInt16BE(0, 8)
  out.writeUInt16BE(0, 10)
  return withOpt(out, query, rcode)
}

/** A SERVFAIL answer to `query` (ownAnswer). */
export const servfail = (query) => ownAnswer(query, 2)

/**
 * Whether `message` is a response (QR set). The front never answers one: answering responses
 * lets two servers be set to answer each other's answers for ever from one forged datagram.
 */
export const isResponse = (message) => message.length >= 3 && (message[2] & 0x80) !== 0

/**
 * The front's answer to a message of an opcode other than QUERY that nothing relays: NOTIMP
 * (BADVERS when its EDNS version is not 0), decided on the opcode before its question count is
 * looked at, since some have no question (a DSO message, RFC 8490 §5.1). Null for a QUERY.
 */
export function notImplemented(query) {
  if (query.length < 12 || ((query[2] >> 3) & 0x0f) === 0) return null
  return ownAnswer(query, (ednsOf(query)?.version ?? 0) === 0 ? 4 : 16)
}

/**
 * An answer to `query` with TC set and no records (its question echoed, and an OPT when it had
 * one): the client asks again over TCP.
 */
export function overTcp(query) {
  const out = ownAnswer(query, 0)
  if (out) out[2] |= 0x02
  return out
}

/**
 * A copy of the cached `answer` for `query`: the query's ID, RD and CD bits, and its question
 * spelled as the query spelled it (the cache key ignores case; names compressed against the
 * question take the query's case too, as an authoritative answer would).
 */
export function fitAnswer(answer, query) {
  const out = Buffer.from(answer)
  out[0] = query[0]
  out[1] = query[1]
  out[2] = (out[2] & ~0x01) | (query[2] & 0x01)
  out[3] = (out[3] & ~0x10) | (query[3] & 0x10)
  const end = questionEnd(query)
  if (end > 12 && end === questionEnd(out)) query.copy(out, 12, 12, end)
  return out
}

/** A FORMERR answer to `query` (ownAnswer). */
export const formErr = (query) => ownAnswer(query, 1)

/** The type `query` asks in its first question when it is IXFR (251) or AXFR (252), else null. */
export function asksTransfer(query) {
  const end = questionEnd(query)
  if (end <= 16 || end > query.length) return null
  const type = query.readUInt16BE(end - 4)
  return type === 251 || type === 252 ? type : null
}

/** Whether `query` asks IXFR (type 251) in its first question (any opcode, signed or not). */
export const asksIxfr = (query) => asksTransfer(query) === 251

/** The response code in an answer's header (the low four bits). */
export const rcodeOf = (answer) => answer[3] & 0x0f
