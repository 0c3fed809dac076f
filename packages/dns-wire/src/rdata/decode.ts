/**
 * @module Wire → presentation rdata, picked by the type table's rdata kind; the text is what
 * `encodeRdata` reads back to the same octets. Types without a presentation codec, and rdata
 * whose text would not encode back to it, are shown as RFC 3597 `\# len hex`.
 */
import { TYPE_CODES, fqdn, typeFact, type RdataKind } from '@edgedns/dns-facts'
import { DnsFormatError, RdataError } from '../errors.ts'
import { nameText } from '../names.ts'
import { Reader } from '../reader.ts'
import { encodeRdata } from './index.ts'
import { locText } from './loc.ts'
import { base64Of, generic, hexOf, ipv6Of, quoted, type Decoder } from './present.ts'
import { svcbText } from './svcb.ts'

const name = (r: Reader): string => fqdn(nameText(r.name()))
const rest = (r: Reader, end: number): Uint8Array => r.take(end - r.offset)
const charString = (r: Reader): string => quoted(r.take(r.u8()))

function strings(r: Reader, end: number): string {
  const parts: string[] = []
  while (r.offset < end) parts.push(charString(r))
  return parts.join(' ')
}

const opaque: Decoder = (r, end) => generic(rest(r, end))

const DECODERS: Record<RdataKind, Decoder> = {
  a: (r) => {
    const b = r.take(4)
    return `${b[0]}.${b[1]}.${b[2]}.${b[3]}`
  },
  aaaa: (r) => ipv6Of(r.take(16)),
  name,
  'name-uncompressed': name,
  soa: (r) => `${name(r)} ${name(r)} ${r.u32()} ${r.u32()} ${r.u32()} ${r.u32()} ${r.u32()}`,
  hinfo: (r) => `${charString(r)} ${charString(r)}`,
  mx: (r) => `${r.u16()} ${name(r)}`,
  txt: strings,
  loc: checked(locText, TYPE_CODES.LOC),
  srv: (r) => `${r.u16()} ${r.u16()} ${r.u16()} ${name(r)}`,
  naptr: (r) =>
    `${r.u16()} ${r.u16()} ${charString(r)} ${charString(r)} ${charString(r)} ${name(r)}`,
  cert: (r, end) => `${r.u16()} ${r.u16()} ${r.u8()} ${base64Of(rest(r, end))}`,
  ds: (r, end) => `${r.u16()} ${r.u8()} ${r.u8()} ${hexOf(rest(r, end))}`,
  sshfp: (r, end) => `${r.u8()} ${r.u8()} ${hexOf(rest(r, end))}`,
  dnskey: (r, end) => `${r.u16()} ${r.u8()} ${r.u8()} ${base64Of(rest(r, end))}`,
  tlsa: (r, end) => `${r.u8()} ${r.u8()} ${r.u8()} ${hexOf(rest(r, end))}`,
  openpgpkey: (r, end) => base64Of(rest(r, end)),
  svcb: checked(svcbText, TYPE_CODES.SVCB),
  uri: (r, end) => `${r.u16()} ${r.u16()} ${quoted(rest(r, end))}`,
  caa: (r, end) => {
    const flags = r.u8()
    const tag = String.fromCharCode(...r.take(r.u8()))
    return `${flags} ${tag} ${quoted(rest(r, end))}`
  },
  opaque,
  meta: opaque,
}

/**
 * `decode`, its text encoded again before it is given out (as `type`, the kind's encoder): the
 * wire forms of LOC and SVCB/HTTPS can hold what their text does not say the same way (an LOC
 * size of mantissa 0 with a power of ten, an SVCB target compressed, a `mandatory` list the
 * encoder refuses). Text that does not encode to the same octets is a DnsFormatError, and the
 * rdata is shown generically (`readRdata`).
 */
function checked(decode: Decoder, type: number): Decoder {
  return (r, end) => {
    const start = r.offset
    const text = decode(r, end)
    if (r.offset !== end) return text
    let again: Uint8Array
    try {
      again = encodeRdata(type, text)
    } catch (e) {
      if (e instanceof RdataError) r.fail(`rdata whose text does not encode: ${e.message}`)
      throw e
    }
    const rdata = r.bytes.subarray(start, end)
    if (again.length !== rdata.length || again.some((b, i) => b !== rdata[i]))
      r.fail('rdata whose text encodes to other octets')
    return text
  }
}

/**
 * Presentation text of the `length` octets of rdata at the reader's offset; the reader ends
 * after them. Rdata that does not fill its length exactly throws DnsFormatError.
 */
export function readRdata(r: Reader, type: number, length: number): string {
  const end = r.offset + length
  if (end > r.bytes.length) r.fail('rdata runs past the end of the message')
  const start = r.offset
  let text = ''
  try {
    text = DECODERS[typeFact(type)?.rdata ?? 'opaque'](r, end)
  } catch (err) {
    if (!(err instanceof DnsFormatError)) throw err
    r.offset = -1
  }
  if (r.offset !== end) {
    // A type whose rdata does not have its usual shape is still shown, generically.
    r.offset = start
    text = generic(r.take(length))
  }
  return text
}

/**
 * The type's own presentation of RFC 3597 generic text (`\# 4 0a000001` for an A record is
 * `10.0.0.1`); text that is not generic is returned as given, and octets that are not the type's
 * shape stay generic. Malformed generic text throws RdataError.
 */
export function fromGenericText(type: number, text: string): string {
  if (!/^\s*\\#(\s|$)/.test(text)) return text
  const bytes = encodeRdata(type, text)
  return readRdata(new Reader(bytes), type, bytes.length)
}
