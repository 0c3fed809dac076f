/**
 * @module Answering one AXFR or IXFR request: TSIG check, zone lookup, the record sequence, the
 * messages, each signed. A server adapter (a TCP front, a Worker) only moves bytes.
 */
import { CLASSES, TYPE_CODES } from '@edgedns/dns-facts'
import {
  DnsFormatError,
  decodeMessage,
  encodeResponse,
  formErrReply,
  type ResponseRR,
} from '@edgedns/dns-wire'
import { planIxfr, type IxfrStep } from './ixfr.ts'
import { TransferPacker, type TransferRecord } from './pack.ts'
import type { PackedAnswers, PackedKeeper, PackedLease } from './packed-answers.ts'
import { soaSerial } from './soa.ts'
import { signErrorResponse, signMessage, tsigSize, verifyRequest } from './tsig.ts'
import { TsigStreamSigner } from './tsig-stream.ts'
import type { TsigKey } from './tsig-key.ts'

/**
 * A zone as a transfer needs it. `records` may include the SOA (it is skipped); it may be async,
 * so a server streams a zone of any size from storage page by page, and an async source may yield
 * a whole page (an array) at a time. A record may give its owner as its labels below the zone
 * (`TransferRecord.below`), which the packer writes without the whole name.
 */
export interface TransferZone {
  soa: ResponseRR
  records(): Iterable<TransferRecord> | AsyncIterable<TransferRecord | readonly TransferRecord[]>
  /**
   * The change log as serial steps leading to the current serial (all of them, or only those
   * after `clientSerial`); without it every IXFR is answered in the AXFR form.
   */
  steps?: readonly IxfrStep[] | ((clientSerial: number) => Promise<readonly IxfrStep[]>)
}

export interface TransferOptions {
  keys: readonly TsigKey[]
  /** Refuse (REFUSED) requests without TSIG. */
  requireTsig: boolean
  /** Seconds since the epoch. */
  now: number
  /**
   * Seconds since the epoch when each message of the answer is signed (a long transfer's later
   * messages carry their own time); `now` for every message without it.
   */
  clock?: () => number
  maxSize?: number
  /**
   * The request came over UDP: an AXFR is FORMERR, an IXFR is answered with the single SOA,
   * which tells the client to ask again over TCP.
   */
  udp?: boolean
  /**
   * The zone's packed AXFR answers (packed-answers.ts): an answer in the AXFR form reuses the
   * messages of an earlier one packed the same way, or leaves its own for the next. While another
   * transfer is packing that answer, this one waits for it (checking every `FOLLOW_POLL_MS`, at
   * most `followMs`) rather than read the zone a second time, and reads it itself if that one
   * fails or takes longer.
   */
  packed?: PackedAnswers
  /** Longest wait for an answer another transfer is packing (default `FOLLOW_MS`; 0: none). */
  followMs?: number
}

/**
 * Default longest wait for an answer another transfer is packing: well within the time a relay
 * gives an answer to start (the DNS front's 10 s), and longer than packing most zones takes.
 */
const FOLLOW_MS = 5000
/** How often a waiting transfer looks for the answer (timers: no promise crosses requests). */
const FOLLOW_POLL_MS = 20

/**
 * The earlier answer packed in `form`: one stored, or the one another transfer is packing once it
 * stores it within `followMs`; null when there is none (this transfer reads the zone itself).
 */
async function earlierAnswer(
  packed: PackedAnswers,
  form: string,
  followMs: number
): Promise<PackedLease | null> {
  const stored = packed.find(form)
  if (stored || followMs <= 0) return stored
  const until = Date.now() + followMs
  while (packed.packing(form) && Date.now() < until)
    await new Promise((r) => setTimeout(r, FOLLOW_POLL_MS))
  return packed.find(form)
}

const NOTAUTH = 9

/** A packed message under another request's ID (a copy). */
function withId(message: Uint8Array, id: number): Uint8Array {
  const copy = message.slice()
  copy[0] = id >> 8
  copy[1] = id & 0xff
  return copy
}

function serialOf(rdata: string): number | null {
  try {
    return soaSerial(rdata)
  } catch {
    return null
  }
}

/** True when `message` is a query whose one question asks AXFR or IXFR (false if unreadable). */
export function isTransferRequest(message: Uint8Array): boolean {
  if (message.length < 12 || (message[2]! & 0x80) !== 0) return false
  try {
    const q = decodeMessage(message).question
    return (
      q.length === 1 && (q[0]!.typeCode === TYPE_CODES.AXFR || q[0]!.typeCode === TYPE_CODES.IXFR)
    )
  } catch {
    return false
  }
}

/** The question of a request, or null when it is unreadable or has no single question. */
export function requestQuestion(message: Uint8Array): { name: string; type: number } | null {
  try {
    const q = decodeMessage(message).question
    return q.length === 1
      ? { name: q[0]!.name.toLowerCase().replace(/\.$/, ''), type: q[0]!.typeCode }
      : null
  } catch {
    return null
  }
}

/** The AXFR record sequence (SOA, the records, SOA) in runs of records, a source's page a run. */
async function* axfrStream(
  soa: ResponseRR,
  records: Iterable<TransferRecord> | AsyncIterable<TransferRecord | readonly TransferRecord[]>
): AsyncGenerator<readonly TransferRecord[]> {
  yield [soa]
  for await (const item of records) {
    if (!Array.isArray(item)) {
      const rr = item as TransferRecord
      if (rr.type !== TYPE_CODES.SOA) yield [rr]
    } else yield (item as readonly TransferRecord[]).filter((rr) => rr.type !== TYPE_CODES.SOA)
  }
  yield [soa]
}

/**
 * The messages answering a transfer request, in order, as they are packed (a zone's records are
 * read only as the consumer pulls). Errors are one message: FORMERR (malformed), NOTIMP (an opcode
 * other than QUERY), NOTAUTH with the
 * TSIG error (BADKEY, BADSIG, BADTIME, BADTRUNC; FORMERR for a MAC of impossible length),
 * REFUSED (TSIG required but absent), NOTAUTH (`zone` null: no such zone here).
 */
export async function* transferMessages(
  request: Uint8Array,
  zone: TransferZone | null,
  options: TransferOptions
): AsyncGenerator<Uint8Array> {
  let verdict
  let message
  try {
    verdict = await verifyRequest(request, options.keys, options.now)
    message = decodeMessage(verdict.status === 'error' ? request : verdict.message)
  } catch (err) {
    if (err instanceof DnsFormatError) {
      if (err.header) yield formErrReply(err.header)
      return
    }
    throw err
  }
  const q = message.question[0]
  const question = q ? { name: q.name, type: q.typeCode, class: q.class } : null
  // A request with EDNS gets an OPT record back (in the first message of a transfer).
  const edns = message.opt ? {} : null
  // Every reply copies the request's RD bit (RFC 5936 §2.2.1).
  const rd = message.rd
  const reply = (rcode: number | 'FORMERR' | 'REFUSED' | 'BADVERS' | 'NOTIMP'): Uint8Array =>
    encodeResponse({ id: message.id, opcode: message.opcode, rcode, rd, question, edns })
  if (verdict.status === 'error') {
    yield await signErrorResponse(reply(verdict.error.rcode), verdict, options.now)
    return
  }
  const signer =
    verdict.status === 'ok'
      ? new TsigStreamSigner(verdict.key, verdict.tsig.mac, options.clock ?? options.now)
      : null
  // Signing is sequential: each message's MAC chains the prior one.
  const sign = async (m: Uint8Array): Promise<Uint8Array> => (signer ? signer.sign(m) : m)
  if (!signer && options.requireTsig) {
    yield reply('REFUSED')
    return
  }
  // A transfer is a QUERY; another opcode (STATUS, or one not assigned) is not implemented here.
  if (message.opcode !== 0) {
    yield await sign(reply('NOTIMP'))
    return
  }
  // A transfer names one zone of one class: class ANY is malformed, and our zones are all IN.
  if (!q || message.question.length !== 1 || q.class === CLASSES.ANY) {
    yield await sign(reply('FORMERR'))
    return
  }
  if (!zone || q.class !== CLASSES.IN) {
    yield await sign(reply(NOTAUTH))
    return
  }
  if (message.opt && message.opt.version !== 0) {
    yield await sign(reply('BADVERS'))
    return
  }

  if (options.udp && q.typeCode === TYPE_CODES.AXFR) {
    yield await sign(reply('FORMERR'))
    return
  }
  let records: readonly ResponseRR[] | null = null
  if (q.typeCode === TYPE_CODES.IXFR) {
    const clientSoa = message.authority.find((rr) => rr.typeCode === TYPE_CODES.SOA)
    const clientSerial = clientSoa ? serialOf(clientSoa.data) : null
    if (clientSerial === null) {
      yield await sign(reply('FORMERR'))
      return
    }
    if (options.udp) {
      yield await sign(
        encodeResponse({
          id: message.id,
          opcode: 0,
          rcode: 0,
          aa: true,
          rd,
          question,
          answer: [zone.soa],
          edns,
        })
      )
      return
    }
    const steps =
      typeof zone.steps === 'function' ? await zone.steps(clientSerial) : (zone.steps ?? [])
    const plan = planIxfr({ clientSerial, soa: zone.soa, steps })
    if (plan.kind !== 'axfr') records = plan.records
  }
  const reserve = verdict.status === 'ok' ? tsigSize(verdict.key) : 0
  // An answer in the AXFR form depends on the zone and on how it is packed, not on the request's ID.
  const form = records
    ? null
    : [q.name, q.typeCode, reserve, edns !== null, rd, options.maxSize].join('|')
  const earlier =
    form === null || !options.packed
      ? null
      : await earlierAnswer(options.packed, form, options.followMs ?? FOLLOW_MS)
  if (earlier) {
    try {
      for (const m of earlier.messages) yield await sign(withId(m, message.id))
    } finally {
      earlier.release()
    }
    return
  }
  let keeper: PackedKeeper | null = form === null ? null : (options.packed?.keep(form) ?? null)
  const kept = (m: Uint8Array): Uint8Array => {
    if (keeper && !keeper.add(m)) keeper = null
    return m
  }
  const packer = new TransferPacker({
    id: message.id,
    question: { name: q.name, type: q.typeCode },
    reserve,
    edns: edns !== null,
    rd,
    ...(options.maxSize ? { maxSize: options.maxSize } : {}),
  })
  try {
    for await (const run of records ? [records] : axfrStream(zone.soa, zone.records())) {
      for (const rr of run) {
        const full = packer.add(rr)
        if (full) yield await sign(kept(full))
      }
    }
    const last = packer.finish()
    if (last) kept(last)
    // Every record was read (a source that found the zone changed meanwhile threw before this).
    keeper?.done()
    if (last) yield await sign(last)
  } finally {
    keeper?.drop()
  }
}

/** Every message of `transferMessages`, after looking the zone up with `findZone`. */
export async function answerTransfer(
  request: Uint8Array,
  findZone: (name: string) => Promise<TransferZone | null> | TransferZone | null,
  options: TransferOptions
): Promise<Uint8Array[]> {
  const question = requestQuestion(request)
  const zone = question ? await findZone(question.name) : null
  const out: Uint8Array[] = []
  for await (const m of transferMessages(request, zone, options)) out.push(m)
  return out
}

/**
 * Answers a TSIG-signed ordinary query (a secondary's SOA check before a transfer): the request
 * is verified, `resolve` answers the request without its TSIG, and the answer is signed. A failed
 * check gets NOTAUTH with the TSIG error. Null when the request is unsigned or unreadable (the
 * caller answers it as usual).
 */
export async function answerSignedQuery(
  request: Uint8Array,
  keys: readonly TsigKey[],
  now: number,
  resolve: (unsigned: Uint8Array) => Promise<Uint8Array>
): Promise<Uint8Array | null> {
  let verdict
  try {
    verdict = await verifyRequest(request, keys, now)
  } catch (err) {
    if (err instanceof DnsFormatError) return null
    throw err
  }
  if (verdict.status === 'unsigned') return null
  if (verdict.status === 'error') {
    const message = decodeMessage(request)
    const q = message.question[0]
    const reply = encodeResponse({
      id: message.id,
      opcode: message.opcode,
      rcode: verdict.error.rcode,
      rd: message.rd,
      question: q ? { name: q.name, type: q.typeCode, class: q.class } : null,
    })
    return signErrorResponse(reply, verdict, now)
  }
  const answer = await resolve(verdict.message)
  const signed = await signMessage(answer, verdict.key, {
    time: now,
    previousMac: verdict.tsig.mac,
  })
  return signed.message
}
