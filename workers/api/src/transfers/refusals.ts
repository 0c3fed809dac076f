/**
 * @module What a relayed DNS query for a zone's transfer is, what answers it, and the single
 * replies that refuse it: REFUSED, FORMERR for a request without exactly one question, SERVFAIL
 * for a zone that is not loaded, and REFUSED signed when the request is signed with a peer's key.
 */
import { decodeMessage, encodeResponse } from '@edgedns/dns-wire'
import { answerSignedQuery, transferMessages, type TsigKey } from '@edgedns/zone-transfer'
import { streamOf } from './answer-stream.ts'

export interface TransferRequest {
  /** The DNS query as the client sent it. */
  query: Uint8Array
  /** The client's address as the front saw it. */
  client: string
  /** Seconds since the epoch. */
  now: number
  /** Whether the caller may relay transfers of a zone of this account. */
  mayRelay: (zone: { accountId: string; id: string }) => boolean
  /** Records a page of a zone's transfer reads; for a catalog, members a joined string holds. */
  pageSize?: number
  /** The client asked over UDP: an AXFR is FORMERR, an IXFR gets the single SOA (serve.ts). */
  udp?: boolean
}

export interface TransferAnswer {
  /** The messages, each with its two-octet length prefix. */
  body: ReadableStream<Uint8Array>
  /** Resolves once the whole answer has been read: true for a completed transfer. */
  completed: Promise<boolean>
  zoneId: string | null
  db: D1Database | null
}

/**
 * A single unsigned reply to `query`: REFUSED, FORMERR (`rcode`) for a request without exactly one
 * question (no zone, so no key to sign with), or SERVFAIL for a zone that is not loaded; FORMERR's
 * own form when it is unreadable.
 */
export async function* refusal(
  query: Uint8Array,
  rcode: RefusalRcode = 'REFUSED'
): AsyncGenerator<Uint8Array> {
  let message
  try {
    message = decodeMessage(query)
  } catch {
    // Unreadable: the transfer code answers it (FORMERR, or nothing when even the header is short).
    yield* transferMessages(query, null, { keys: [], requireTsig: false, now: 0 })
    return
  }
  yield refusalReply(message, rcode)
}

/** The reply of `refusal` to a readable request. */
function refusalReply(message: ReturnType<typeof decodeMessage>, rcode: RefusalRcode): Uint8Array {
  const q = message.question[0]
  return encodeResponse({
    id: message.id,
    opcode: message.opcode,
    rcode,
    rd: message.rd,
    question: q ? { name: q.name, type: q.typeCode, class: q.class } : null,
    edns: message.opt ? {} : null,
  })
}

/**
 * REFUSED for a zone whose transfers are disabled, or to a client they are not for: signed when
 * the request is signed with one of the zone's peers' keys (RFC 8945 §5.3: the answer to a
 * verified request is signed; a BIND secondary discards an unsigned one as forged), with the TSIG
 * error when its signature does not verify, unsigned otherwise.
 */
export function refusedSigned(request: TransferRequest, keys: readonly TsigKey[]): TransferAnswer {
  const single = async function* (): AsyncGenerator<Uint8Array> {
    const signed = await answerSignedQuery(request.query, keys, request.now, async (unsigned) =>
      refusalReply(decodeMessage(unsigned), 'REFUSED')
    ).catch(() => null)
    if (signed) yield signed
    else yield* refusal(request.query)
  }
  return { ...streamOf(single()), zoneId: null, db: null }
}

type RefusalRcode = 'REFUSED' | 'FORMERR' | 'SERVFAIL'

export function refused(request: TransferRequest, rcode?: RefusalRcode): TransferAnswer {
  return { ...streamOf(refusal(request.query, rcode)), zoneId: null, db: null }
}
