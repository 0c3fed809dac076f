/**
 * @module The answer to one relayed AXFR/IXFR request (or a secondary's signed SOA query) for a zone
 * we are primary of: the zone looked up by name with its transfer settings in one D1 batch
 * (transfers/relayed-zone.ts), outgoing transfers enabled,
 * the client address checked against the account's ACLs and the zone's peers, TSIG required with
 * one of the peers' keys when they have any. The answer is a stream of DNS messages, each with its
 * TCP length prefix, packed as the zone's records are read from D1 in keyset pages, so a zone of
 * any size is never held in memory. A name that is no zone of ours may be an account's catalog
 * zone (transfers/catalog-zone.ts): served the same way under the catalog's own peers.
 */
import { TYPE_CODES } from '@edgedns/dns-facts'
import { decodeMessage, encodeResponse, type ResponseRR } from '@edgedns/dns-wire'
import {
  AUTO_TTL_SECONDS,
  RecordError,
  fqdn,
  toPresentation,
  type RecordType,
} from '@edgedns/records'
import {
  RecordBelowZone,
  answerSignedQuery,
  requestQuestion,
  transferMessages,
  type PackedAnswers,
  type TransferOptions,
  type TransferRecord,
  type TsigKey,
  type TransferZone,
} from '@edgedns/zone-transfer'
import type { RecordRow } from '../records/model.ts'
import type { ShardEnv } from '../shards/databases.ts'
import { zoneDefaultNameServers } from '../zones/apex-ns.ts'
import { soaRdata, type ZoneRow } from '../zones/model.ts'
import { streamOf } from './answer-stream.ts'
import {
  refusal,
  refused,
  refusedSigned,
  type TransferAnswer,
  type TransferRequest,
} from './refusals.ts'
import { isApexCname } from './apex-cname.ts'
import { CATALOG_BATCH } from './catalog-members.ts'
import { changeSteps } from './change-steps.ts'
import { ZoneChangedDuringTransfer } from './transfer-errors.ts'
import { catalogNamed, catalogTransfer, catalogTransferConfig } from './catalog-zone.ts'
import { keyOf, ownerIsWhole, readRelayedZoneNamed, wholeOwner } from './relayed-zone.ts'
import { packedAxfrsOf } from './packed-axfrs.ts'
import { giveSetTtls, takeLastSet } from './set-ttls.ts'
import { transferPages, type TransferPage } from './transfer-pages.ts'
import { clientAllowed, peerKeys, tsigRequired, type OutgoingConfig } from './transfer-config.ts'

/** Records read from D1 per page of a transfer. */
export const TRANSFER_PAGE = 10_000

/** The zone's SOA as served: the zone's SOA settings and its current serial. */
export function zoneSoa(z: ZoneRow): ResponseRR {
  return { name: z.name, type: TYPE_CODES.SOA, ttl: z.soaTtl, rdata: soaRdata(z) }
}

/**
 * A stored record's rdata as transferred; null when it cannot be written as presentation (a row
 * an earlier, laxer check stored: the export writes it as a comment, a transfer skips it).
 */
function transferRdata(
  type: string,
  content: string,
  data: string | null,
  priority: number | null
): string | null {
  // An address record's presentation is its stored content (the most common records of a zone).
  if (type === 'A' || type === 'AAAA') return content
  try {
    return toPresentation({
      type: type as RecordType,
      content,
      data: data === null ? null : (JSON.parse(data) as Record<string, unknown>),
      priority,
    })
  } catch (e) {
    if (e instanceof RecordError) return null
    throw e
  }
}

const typeCode = (type: string): number | undefined => (TYPE_CODES as Record<string, number>)[type]

/** A stored TTL as served: 1 is "automatic". */
const servedTtl = (ttl: number): number => (ttl === 1 ? AUTO_TTL_SECONDS : ttl)

/**
 * A stored record as transferred; null when its type is unknown or its rdata cannot be written
 * (see `transferRdata`).
 */
function transferRecord(
  name: string,
  type: string,
  content: string,
  data: string | null,
  priority: number | null,
  ttl: number
): ResponseRR | null {
  const code = typeCode(type)
  if (code === undefined) return null
  const rdata = transferRdata(type, content, data, priority)
  if (rdata === null) return null
  return { name, type: code, ttl: servedTtl(ttl), rdata }
}

/** A stored record row as transferred (see `transferRecord`). */
function zoneRecord(row: RecordRow): ResponseRR | null {
  return transferRecord(row.name, row.type, row.content, row.data, row.priority, row.ttl)
}

/** A stored record row as an IXFR difference carries it: none for an apex CNAME (apex-cname.ts). */
const zoneRecordSent = (z: ZoneRow, row: RecordRow): ResponseRR | null =>
  isApexCname(z.name, row.name, row.type) ? null : zoneRecord(row)

/**
 * Every record of the zone, read page by page and yielded a page at a time, after the zone's
 * default name servers as its apex NS set when it stores none (zones/apex-ns.ts); the next page is
 * read from D1 while the consumer packs the current one. Records are read only once the consumer
 * asks for them (after the request's checks).
 */
async function* zoneRecords(
  db: D1Database,
  z: ZoneRow,
  pageSize: number
): AsyncGenerator<TransferRecord[]> {
  const pages = transferPages(db, z, pageSize)
  const first = await pages.first()
  // The first page is of another version than the zone row read before it (a commit came in
  // between): break off before any record is sent (the change's NOTIFY is on its way).
  if (first.changeSeq !== z.changeSeq) throw new ZoneChangedDuringTransfer(z.name)
  // A zone storing no apex NS set serves its default name servers there (its stored set, like
  // every set, goes out with one TTL below).
  if (first.apexNsTtl === null)
    yield zoneDefaultNameServers(z).map((host) => ({
      name: z.name,
      type: TYPE_CODES.NS,
      ttl: z.nsTtl,
      rdata: fqdn(host),
    }))
  let page: TransferPage = first
  let read = 1
  // The last RRset of the page before: the page after may hold more of it (set-ttls.ts).
  let held: TransferRecord[] = []
  for (;;) {
    const last = page.rows[page.rows.length - 1]
    const next = last && page.more ? pages.after(keyOf(last, z.name)) : null
    // A consumer that stops early leaves `next` unread: its failure is nobody's to report.
    next?.catch(() => {})
    const records: TransferRecord[] = held
    for (const [type, content, priority, owner, data, ttl] of page.rows) {
      if (ownerIsWhole(owner)) {
        const name = wholeOwner(owner)
        if (isApexCname(z.name, name, type)) continue
        const rr = transferRecord(name, type, content, data, priority, ttl)
        if (rr) records.push(rr)
        continue
      }
      // An owner below the zone's name goes to the packer as its own labels.
      const code = typeCode(type)
      const rdata = code === undefined ? null : transferRdata(type, content, data, priority)
      if (rdata !== null)
        records.push(new RecordBelowZone(owner, z.name, code!, servedTtl(ttl), rdata))
    }
    // Every record of an RRset with the set's TTL, as the edge serves it and the export writes it.
    held = next ? takeLastSet(records) : []
    giveSetTtls(records)
    if (records.length > 0) yield records
    if (!next) break
    page = await next
    read++
  }
  // A zone read in one page with its change sequence is one version (one transaction). Pages read
  // one after another could mix two versions under one serial if a commit came in between: such a
  // transfer is broken off before its closing SOA, so the secondary discards it and asks again
  // (the change's NOTIFY is on its way).
  if (read === 1) return
  const now = await db
    .prepare('SELECT change_seq FROM zones WHERE id = ?1')
    .bind(z.id)
    .first<{ change_seq: number }>()
  if (now?.change_seq !== z.changeSeq) throw new ZoneChangedDuringTransfer(z.name)
}

/**
 * The answer to a signed (or plain) non-transfer query: the SOA to a question for the zone's own
 * SOA (a secondary's serial check); REFUSED to any other question (the relay holds the zone's SOA
 * only, and saying "no data" for a name or type it never looked at would be false); NOTIMP for
 * another opcode (NOTIFY, UPDATE: the relay serves only queries); OPT when the query had EDNS.
 */
function soaAnswer(query: Uint8Array, soa: ResponseRR): Uint8Array {
  const message = decodeMessage(query)
  const q = message.question[0]
  const question = q ? { name: q.name, type: q.typeCode, class: q.class } : null
  const edns = message.opt ? {} : null
  const reply = { id: message.id, opcode: message.opcode, rd: message.rd, question, edns }
  if (message.opcode !== 0) return encodeResponse({ ...reply, rcode: 'NOTIMP' })
  const zoneSoa =
    q?.typeCode === TYPE_CODES.SOA && q.name.toLowerCase().replace(/\.$/, '') === soa.name
  if (!zoneSoa) return encodeResponse({ ...reply, rcode: 'REFUSED' })
  return encodeResponse({ ...reply, rcode: 0, aa: true, answer: [soa] })
}

/**
 * Answers a relayed DNS query for one of our zones, or for an account's catalog zone (see the
 * module comment; a zone of the same name as a catalog wins).
 */
export async function answerRelayedQuery(
  env: ShardEnv & { TRANSFER_CACHE_MB?: string },
  request: TransferRequest
): Promise<TransferAnswer> {
  const question = requestQuestion(request.query)
  // No question or several: malformed (RFC 5936 §2.1: one question), answered unsigned.
  if (!question) return refused(request, 'FORMERR')
  const pageSize = request.pageSize ?? TRANSFER_PAGE
  const found = await readRelayedZoneNamed(env, question.name)
  if (found === 'unknown') return answerCatalogQuery(env, request, question.name)
  const { db, read } = found
  if (!read || !request.mayRelay(read.zone)) return refused(request)
  const { zone, config } = read
  if (!config) return refused(request)
  // A secondary zone not loaded (no transfer yet, or expired) has no copy to give: SERVFAIL, as BIND
  // answers, to a client that may transfer it (any other is refused as usual).
  const notLoaded = zone.type === 'secondary' && zone.secondaryExpired
  if (notLoaded && config.enabled && clientAllowed(config, request.client))
    return refused(request, 'SERVFAIL')
  const answer = serveTransfer(
    request,
    config,
    {
      soa: zoneSoa(zone),
      records: () => zoneRecords(db, zone, pageSize),
      steps: async (clientSerial) =>
        (await changeSteps(db, zone, clientSerial, (row) => zoneRecordSent(zone, row))) ?? [],
    },
    undefined,
    packedAxfrsOf(env, zone)
  )
  // A completed transfer of a zone is recorded in its outgoing settings.
  return { ...answer, zoneId: answer.zoneId === null ? null : zone.id, db }
}

/**
 * The catalog zone of that name, served like a zone: AXFR (an IXFR is answered in the AXFR form,
 * or with the single SOA when the secondary is current), and signed SOA queries.
 */
async function answerCatalogQuery(
  env: ShardEnv,
  request: TransferRequest,
  name: string
): Promise<TransferAnswer> {
  const catalog = await catalogNamed(env, name)
  if (!catalog || !request.mayRelay({ accountId: catalog.row.account_id, id: catalog.row.id }))
    return refused(request)
  const config = await catalogTransferConfig(catalog)
  const sizes = request.pageSize ? { chunk: request.pageSize, batch: CATALOG_BATCH } : undefined
  const { zone, again } = catalogTransfer(catalog, sizes)
  const answer = serveTransfer(request, config, zone, again)
  return { ...answer, zoneId: null, db: null }
}

/**
 * The transfer's messages from `zone`; when it fails before its first message and `again` gives
 * another zone for that failure, the answer is made from that one instead (a catalog whose
 * members were read at a newer serial than its SOA, answered at theirs).
 */
async function* answerMessages(
  query: Uint8Array,
  zone: TransferZone,
  options: TransferOptions,
  again?: (err: unknown) => TransferZone | null
): AsyncGenerator<Uint8Array> {
  let sent = false
  try {
    for await (const message of transferMessages(query, zone, options)) {
      sent = true
      yield message
    }
  } catch (err) {
    const next = sent || !again ? null : again(err)
    if (!next) throw err
    yield* transferMessages(query, next, options)
  }
}

/**
 * The answer under `config`: REFUSED when transfers are disabled or the client is not allowed;
 * else the SOA answer to a plain or signed query, or the transfer (zoneId set to mark one; see
 * `answerMessages` for `again`); `packed`, a zone's packed AXFR answers (transfers/packed-axfrs.ts).
 */
function serveTransfer(
  request: TransferRequest,
  config: OutgoingConfig,
  transferZone: TransferZone,
  again?: (err: unknown) => TransferZone | null,
  packed?: PackedAnswers
): TransferAnswer {
  const keys = peerKeys(config)
  if (!config.enabled || !clientAllowed(config, request.client)) return refusedSigned(request, keys)
  const signedOnly = tsigRequired(config)
  const soa = transferZone.soa
  const question = requestQuestion(request.query)
  const transfer = question?.type === TYPE_CODES.AXFR || question?.type === TYPE_CODES.IXFR
  if (!transfer) {
    const single = async function* (): AsyncGenerator<Uint8Array> {
      const signed = await answerSignedQuery(request.query, keys, request.now, async (unsigned) =>
        soaAnswer(unsigned, soa)
      ).catch(() => null)
      if (signed) yield signed
      else if (signedOnly) yield* refusal(request.query)
      else yield soaAnswer(request.query, soa)
    }
    return { ...streamOf(single()), zoneId: null, db: null }
  }
  const messages = answerMessages(
    request.query,
    transferZone,
    {
      keys,
      requireTsig: signedOnly,
      now: request.now,
      // The Workers clock moves at I/O, as a transfer's page reads are.
      clock: () => Math.floor(Date.now() / 1000),
      udp: request.udp ?? false,
      ...(packed ? { packed } : {}),
    },
    again
  )
  // Over UDP no transfer is made (an error, or the SOA that sends the client to TCP).
  const ixfr = question?.type === TYPE_CODES.IXFR
  return { ...streamOf(messages, { ixfr }), zoneId: request.udp ? null : config.zoneId, db: null }
}
