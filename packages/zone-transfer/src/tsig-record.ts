/** @module The TSIG record of a DNS message: found, read and taken off (RFC 8945 §5.2). */
import { CLASSES, TYPE_CODES } from '@edgedns/dns-facts'
import { Reader, nameText, type Labels } from '@edgedns/dns-wire'
import { canonical } from './tsig-key.ts'

/** The TSIG record as read from a message. Names are canonical text. */
export interface TsigRecord {
  keyName: string
  algorithm: string
  timeSigned: number
  fudge: number
  mac: Uint8Array
  originalId: number
  error: number
  other: Uint8Array
}

/** A message split into its TSIG record and the bytes the MAC covers (ID restored, ARCOUNT − 1). */
export interface SplitMessage {
  unsigned: Uint8Array
  tsig: TsigRecord | null
}

function labelsText(labels: Labels): string {
  return canonical(nameText(labels))
}

/**
 * Finds the TSIG record of a message. It must be the last record of the additional section;
 * a TSIG anywhere else, or a malformed message, throws DnsFormatError.
 */
export function splitTsig(message: Uint8Array): SplitMessage {
  const r = new Reader(message)
  r.u16()
  const flags = r.u16()
  r.header = {
    id: (message[0]! << 8) | message[1]!,
    opcode: (flags >> 11) & 0xf,
    rd: (flags & 0x100) !== 0,
    cd: (flags & 0x10) !== 0,
  }
  const qd = r.u16()
  const records = r.u16() + r.u16()
  const additional = r.u16()
  const total = records + additional
  for (let i = 0; i < qd; i++) {
    r.skipName()
    r.skip(4)
  }
  let tsig: TsigRecord | null = null
  let tsigStart = -1
  for (let i = 0; i < total; i++) {
    const start = r.offset
    r.skipName()
    const type = r.u16()
    const klass = r.u16()
    r.skip(4)
    const length = r.u16()
    const end = r.offset + length
    if (type !== TYPE_CODES.TSIG) {
      r.skip(length)
      continue
    }
    // Only the TSIG's owner (its key name) is needed: read it again, now as labels.
    const fieldsAt = r.offset
    r.offset = start
    const owner = r.name()
    r.offset = fieldsAt
    if (i !== total - 1 || additional === 0) r.fail('TSIG is not the last record')
    if (klass !== CLASSES.ANY) r.fail('TSIG record class is not ANY')
    const algorithm = labelsText(r.name())
    const timeSigned = r.u16() * 0x100000000 + r.u32()
    const fudge = r.u16()
    const mac = new Uint8Array(r.take(r.u16()))
    const originalId = r.u16()
    const error = r.u16()
    const other = new Uint8Array(r.take(r.u16()))
    if (r.offset !== end) r.fail('TSIG rdata length does not match its fields')
    tsig = {
      keyName: labelsText(owner),
      algorithm,
      timeSigned,
      fudge,
      mac,
      originalId,
      error,
      other,
    }
    tsigStart = start
  }
  if (r.offset !== message.length) r.fail('trailing bytes after the last record')
  if (!tsig) return { unsigned: message, tsig: null }
  // A copy (a Node.js Buffer's slice would be a view): the caller's message is left as it was.
  const unsigned = new Uint8Array(message.subarray(0, tsigStart))
  unsigned[0] = tsig.originalId >> 8
  unsigned[1] = tsig.originalId & 0xff
  const arcount = ((unsigned[10]! << 8) | unsigned[11]!) - 1
  unsigned[10] = arcount >> 8
  unsigned[11] = arcount & 0xff
  return { unsigned, tsig }
}
