/**
 * @module Presentation → wire rdata for every supported type, plus RFC 3597 `\# len hex`.
 */
import { RdataError } from '../errors.ts'
import { NameError, type Compressor } from '../names.ts'
import { typeName } from '../types.ts'
import { ByteWriter } from '../writer.ts'
import * as b from './basic.ts'
import * as k from './keys.ts'
import { loc } from './loc.ts'
import { svcb } from './svcb.ts'
import { TextError, hex, tokenize, uint } from './text.ts'

const ENCODERS: Record<number, b.Encoder> = {
  1: b.a,
  2: b.compressedName,
  5: b.compressedName,
  6: b.soa,
  12: b.compressedName,
  13: b.hinfo,
  15: b.mx,
  16: b.txt,
  28: b.aaaa,
  29: loc,
  33: b.srv,
  35: b.naptr,
  37: k.cert,
  39: b.plainName,
  43: k.ds,
  44: k.sshfp,
  48: k.dnskey,
  52: k.tlsa,
  53: k.tlsa,
  59: k.ds,
  60: k.dnskey,
  61: k.openpgpkey,
  64: svcb,
  65: svcb,
  99: b.txt,
  256: b.uri,
  257: b.caa,
}

/** Type codes with a presentation-format encoder (others need `\# len hex`). */
export const SUPPORTED_TYPES: readonly number[] = Object.keys(ENCODERS).map(Number)

function generic(w: ByteWriter, tokens: string[]): void {
  const length = uint(tokens[1], 0xffff, 'generic length')
  const data = hex(tokens.slice(2).join(''), 'generic data')
  if (data.length !== length) throw new TextError('generic length does not match data')
  w.bytes(data)
}

/** Writes RDLENGTH and RDATA; names in CNAME/NS/PTR/MX/SOA may be compressed. */
export function writeRdata(w: ByteWriter, type: number, text: string, comp?: Compressor): void {
  const start = w.length
  w.u16(0)
  try {
    const tokens = tokenize(text)
    if (tokens[0] === '\\#') generic(w, tokens)
    else {
      const encoder = ENCODERS[type]
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
