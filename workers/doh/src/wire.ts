/**
 * @module RFC 8484 wire queries: decode, resolve, encode; FORMERR, SERVFAIL or HTTP 400.
 */
import {
  DnsFormatError,
  OPCODES,
  decodeQuery,
  encodeResponse,
  formErrReply,
  peekHeader,
  replyTo,
  type Query,
} from '@edgedns/dns-wire'
import type { ZoneView } from '@edgedns/kv-layout'
import type { Resolution } from '@edgedns/resolver'
import { answerKey, tracing, type AnswerCache, type KeepAlive } from './answer-cache.ts'
import { SERVFAIL, answer, logFailure } from './answer.ts'
import type { AnswerSigner } from './dnssec.ts'
import { NO_STORE, cacheControl } from './cache-control.ts'
import { DNS_MESSAGE, answerResponse, wireError } from './http.ts'

/** DoH is not bound by UDP sizes: answers are never truncated below the DNS maximum. */
const MAX_RESPONSE = 65535

/**
 * The HTTP response to the raw DNS message of a GET `?dns=` or a POST body. Fewer than 12 bytes
 * (no header to answer with) is HTTP 400; a malformed message with a header is a FORMERR DNS
 * message in HTTP 200, as authoritative servers answer it over UDP, except that a query of an
 * opcode other than QUERY is NOTIMP whatever follows its header: the opcode is judged before the
 * question count (a DSO message has no question, and a server without DSO answers it NOTIMP,
 * RFC 8490 §5.1).
 */
export async function wireQuery(
  bytes: Uint8Array,
  view: ZoneView,
  answers?: AnswerCache,
  keepAlive?: KeepAlive,
  sign?: AnswerSigner,
  /** The answer-cache key when the caller has one already (`textAnswerKey`). */
  knownKey?: string
): Promise<Response> {
  const arrived = Date.now()
  const key = answers && bytes.length >= 12 ? (knownKey ?? answerKey(bytes)) : null
  if (answers && key !== null) {
    const cached = answers.answer(bytes, key, arrived, keepAlive)
    const hit = cached instanceof Promise ? await cached : cached
    if (hit) return answerResponse(hit.wire, DNS_MESSAGE, hit.cacheControl)
  }
  let query: Query
  try {
    query = decodeQuery(bytes)
  } catch (err) {
    if (!(err instanceof DnsFormatError)) throw err
    if (!err.header) return wireError(400, `malformed DNS query: ${err.message}`)
    const isQuery = ((bytes[2] as number) & 0x80) === 0
    if (isQuery && err.header.opcode !== OPCODES.QUERY)
      return answerResponse(formErrReply(err.header, 'NOTIMP'), DNS_MESSAGE, NO_STORE)
    return answerResponse(formErrReply(err.header), DNS_MESSAGE, NO_STORE)
  }

  // BADVERS and NOTIMP need no data: replyTo ignores the result for them.
  const skip = query.opcode !== OPCODES.QUERY || (query.edns !== null && query.edns.version !== 0)
  const traced = tracing(view, keepAlive)
  const resolved = skip ? SERVFAIL : await answer(traced.view, questionOf(query))
  // Only DO=1 questions carry signing hints: DO=0 answers never reach the signer.
  const result = resolved.dnssec && sign ? await signed(sign, resolved) : resolved
  let wire: Uint8Array
  let cache = skip ? NO_STORE : cacheControl(result)
  try {
    wire = encodeResponse(replyTo(query, result, { maxSize: MAX_RESPONSE }))
  } catch (err) {
    // Stored rdata that does not encode (RdataError) is a server fault, not the client's.
    logFailure(`encode ${query.question.name}/${query.question.type}`, err)
    wire = encodeResponse(replyTo(query, SERVFAIL, { maxSize: MAX_RESPONSE }))
    cache = NO_STORE
  }
  const reusable = result.rcode === 'NOERROR' || result.rcode === 'NXDOMAIN'
  // A zone whose signing ends at a set time (DNSSEC being disabled) is not kept: its signed answers must stop then.
  const windingDown = resolved.dnssec?.zones.some((z) => z.dnssec?.until !== undefined) ?? false
  if (
    answers &&
    key !== null &&
    !skip &&
    reusable &&
    !windingDown &&
    cache !== NO_STORE &&
    traced.deps
  )
    answers.keep(key, wire, cache, traced.deps, arrived)
  return answerResponse(wire, DNS_MESSAGE, cache)
}

async function signed(sign: AnswerSigner, resolved: Resolution): Promise<Resolution> {
  try {
    return await sign(resolved)
  } catch (err) {
    logFailure('sign', err)
    return SERVFAIL
  }
}

function questionOf(query: Query) {
  const { name, type } = query.question
  return { name, type, class: query.question.class, dnssecOk: query.edns?.do ?? false }
}

/** Last resort for an unexpected exception: a header-only SERVFAIL echoing what can be read. */
export function wireServfail(bytes: Uint8Array | undefined): Response {
  const header = bytes ? peekHeader(bytes) : undefined
  const wire = encodeResponse({
    id: header?.id ?? 0,
    opcode: header?.opcode ?? OPCODES.QUERY,
    rd: header?.rd ?? false,
    cd: header?.cd ?? false,
    rcode: 'SERVFAIL',
  })
  return answerResponse(wire, DNS_MESSAGE, NO_STORE)
}
