/**
 * @module Presentation → wire rdata for every supported type, plus RFC 3597 `\# len hex`.
 */
import { RR_TYPES, TYPE_CODES, typeFact, typeName, type RdataKind } from '@edgedns/dns-facts'
import { RdataError } from '../errors.ts'
import { NameError, type Compressor } from '../names.ts'
import { ByteWriter } from '../writer.ts'
import * as b from './basic.ts'
import * as k from './keys.ts'
import { loc } from './loc.ts'
import { svcb } from './svcb.ts'
import { TextError, hex, readIPv4, tokenize, uint } from './text.ts'

/** Presentation → wire encoder per rdata kind; `opaque` and `meta` types take only `\# len hex`. */
const ENCODERS: Record<RdataKind, b.Encoder | undefined> = {
  a: b.a,
  aaaa: b.aaaa,
  name: b.compressedName,
  'name-uncompressed': b.plainName,
  soa: b.soa,
  hinfo: b.hinfo,
  mx: b.mx,
  txt: b.txt,
  loc,
  srv: b.srv,
  naptr: b.naptr,
  cert: k.cert,
  ds: k.ds,
  sshfp: k.sshfp,
  dnskey: k.dnskey,
  tlsa: k.tlsa,
  openpgpkey: k.openpgpkey,
  svcb,
  uri: b.uri,
  caa: b.caa,
  opaque: undefined,
  meta: undefined,
}

const encoderFor = (type: number): b.Encoder | undefined => {
  const kind = typeFact(type)?.rdata
  return kind === undefined ? undefined : ENCODERS[kind]
}

/** Type codes with a presentation-format encoder (others need `\# len hex`), from the type table. */
export const SUPPORTED_TYPES: readonly number[] = RR_TYPES.filter((t) => ENCODERS[t.rdata]).map(
  (t) => t.code
)

function generic(w: ByteWriter, tokens: string[]): void {
  const length = uint(tokens[1], 0xffff, 'generic length')
  const data = hex(tokens.slice(2).join(''), 'generic data')
  if (data.length !== length) throw new TextError('generic length does not match data')
  w.bytes(data)
}

const quad = new Uint8Array(4)

/** Writes RDLENGTH and RDATA; names in CNAME/NS/PTR/MX/SOA may be compressed. */
export function writeRdata(w: ByteWriter, type: number, text: string, comp?: Compressor): void {
  // An A record's dotted quad (most of a large zone) goes straight in, without tokens.
  if (type === TYPE_CODES.A && readIPv4(text, quad)) {
    w.u16(4)
    w.u8(quad[0]!)
    w.u8(quad[1]!)
    w.u8(quad[2]!)
    w.u8(quad[3]!)
    return
  }
  const start = w.length
  w.u16(0)
  try {
    const tokens = tokenize(text)
    if (tokens[0] === '\\#') generic(w, tokens)
    else {
      const encoder = encoderFor(type)
      if (!encoder) throw new TextError('no presentation format known; use \\# <len> <hex>')
      encoder(w, tokens, comp)
    }
  } catch (err) {
    if (err instanceof TextError || err instanceof NameError) {
      throw new RdataError(typeName(type), err.message)
    }
    throw err
  }
  const length = w.length - start - 2
  if (length > 0xffff) throw new RdataError(typeName(type), 'rdata longer than 65535 octets')
  w.setU16(start, length)
}

/** Uncompressed wire rdata (without RDLENGTH) of one record; throws RdataError. */
export function encodeRdata(type: number, text: string): Uint8Array {
  const w = new ByteWriter()
  writeRdata(w, type, text)
  return w.finish().subarray(2)
}
