/**
 * @module Packing a transfer's records into as many DNS messages as needed (RFC 5936 §2.2): each
 * message under the size limit, names compressed within a message, the question in the first only.
 */
import { CLASSES } from '@edgedns/dns-facts'
import {
  ByteWriter,
  Compressor,
  RdataError,
  parseName,
  writeName,
  writeRdata,
  type ResponseRR,
} from '@edgedns/dns-wire'

export interface TransferQuestion {
  name: string
  /** AXFR (252) or IXFR (251). */
  type: number
}

export interface PackOptions {
  /** The request's ID, echoed in every message. */
  id: number
  question: TransferQuestion
  /** Largest message (the TCP length prefix allows 65535). */
  maxSize?: number
  /** Octets to leave free in every message, e.g. `tsigSize(key)` when each will be signed. */
  reserve?: number
}

const FLAGS_QR_AA = 0x8400

function startMessage(
  w: ByteWriter,
  id: number,
  question: TransferQuestion | null,
  comp: Compressor
): void {
  w.reset()
  w.u16(id)
  w.u16(FLAGS_QR_AA)
  w.u16(question ? 1 : 0)
  w.u16(0)
  w.u16(0)
  w.u16(0)
  if (question) {
    writeName(w, parseName(question.name), comp)
    w.u16(question.type)
    w.u16(CLASSES.IN)
  }
}

function writeRecord(w: ByteWriter, rr: ResponseRR, comp: Compressor): void {
  let owner
  try {
    owner = parseName(rr.name)
  } catch (err) {
    throw new RdataError('owner', err instanceof Error ? err.message : String(err))
  }
  writeName(w, owner, comp)
  w.u16(rr.type)
  w.u16(CLASSES.IN)
  w.u32(Math.max(0, Math.min(rr.ttl, 0x7fffffff)))
  writeRdata(w, rr.type, rr.rdata, comp)
}

/**
 * The answer messages of a transfer, in order. A record is never split across messages; one
 * record too large for a message on its own throws RangeError, bad record text RdataError.
 */
export function packTransfer(records: Iterable<ResponseRR>, options: PackOptions): Uint8Array[] {
  const budget = Math.min(options.maxSize ?? 65535, 65535) - (options.reserve ?? 0)
  const messages: Uint8Array[] = []
  const w = new ByteWriter()
  let comp = new Compressor()
  startMessage(w, options.id, options.question, comp)
  let count = 0
  const close = (): void => {
    w.setU16(6, count)
    messages.push(w.finish())
  }
  for (const rr of records) {
    const before = w.length
    const mark = comp.mark()
    writeRecord(w, rr, comp)
    if (w.length <= budget) {
      count++
      continue
    }
    w.truncate(before)
    comp.rollback(mark)
    if (count === 0) throw new RangeError(`record ${rr.name} does not fit in one message`)
    close()
    comp = new Compressor()
    startMessage(w, options.id, null, comp)
    count = 0
    writeRecord(w, rr, comp)
    if (w.length > budget) throw new RangeError(`record ${rr.name} does not fit in one message`)
    count++
  }
  if (count > 0 || messages.length === 0) close()
  return messages
}
