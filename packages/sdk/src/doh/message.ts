/**
 * @module The SDK's view of DoH messages, over the project's one wire codec (`@edgedns/dns-wire`):
 * queries with id 0 (cache friendly), RD, class IN and by default an EDNS(0) OPT of 4096 bytes;
 * answers with header flags, rcode and each section's records in presentation form.
 */
import {
  decodeMessage as decodeWire,
  encodeQuery as encodeWire,
  rcodeName,
  type MessageRR,
} from '@edgedns/dns-wire'

/**
 * One record of an answer. Declared here (the codec's `MessageRR` has the same shape, checked
 * below) because the published declarations cannot refer to the private codec package.
 */
export interface Answer {
  /** Owner as sent, with trailing dot ('.' for the root). */
  name: string
  /** Mnemonic, or `TYPE<n>`. */
  type: string
  typeCode: number
  class: number
  ttl: number
  /** Presentation rdata (RFC 3597 `\# len hex` where the type has no presentation codec). */
  data: string
}
/** Compile-time check that the codec's records are this SDK's `Answer`s, both ways. */
const sameShape: [(rr: MessageRR) => Answer, (a: Answer) => MessageRR] = [(rr) => rr, (a) => a]
void sameShape

export interface DnsMessage {
  id: number
  rcode: number
  rcodeName: string
  flags: {
    qr: boolean
    aa: boolean
    tc: boolean
    rd: boolean
    ra: boolean
    ad: boolean
    cd: boolean
  }
  question: { name: string; type: string }[]
  answers: Answer[]
  authority: Answer[]
  additional: Answer[]
}

export interface QueryOptions {
  id?: number
  /** Add an EDNS(0) OPT record (default true). */
  edns?: boolean
  /** DNSSEC OK bit (with EDNS). */
  dnssecOk?: boolean
}

/** Presentation name to ASCII: non-ASCII names go to Punycode through the URL parser. */
function asciiName(name: string): string {
  const trimmed = name.trim()
  return /[^\x00-\x7f]/.test(trimmed)
    ? new URL(`http://${trimmed.replace(/\.$/, '')}`).hostname
    : trimmed
}

export function encodeQuery(
  name: string,
  type: string | number,
  opts: QueryOptions = {}
): Uint8Array {
  const edns = (opts.edns ?? true) ? { payload: 4096, do: opts.dnssecOk ?? false } : null
  return encodeWire(asciiName(name), type, { id: opts.id ?? 0, edns })
}

export function decodeMessage(bytes: Uint8Array): DnsMessage {
  const m = decodeWire(bytes)
  return {
    id: m.id,
    rcode: m.rcode,
    rcodeName: rcodeName(m.rcode),
    flags: { qr: m.qr, aa: m.aa, tc: m.tc, rd: m.rd, ra: m.ra, ad: m.ad, cd: m.cd },
    question: m.question.map((q) => ({ name: q.name, type: q.type })),
    answers: m.answer,
    authority: m.authority,
    additional: m.additional,
  }
}
