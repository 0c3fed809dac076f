/**
 * @module SVCB and HTTPS (RFC 9460): priority, target, SvcParams in ascending key order;
 * presentation → wire and back.
 */
import { fqdn, svcParamKeyCode, svcParamKeyName } from '@edgedns/dns-facts'
import { nameText } from '../names.ts'
import type { Reader } from '../reader.ts'
import { ByteWriter } from '../writer.ts'
import type { Encoder } from './basic.ts'
import { base64Of, ipv6Of, quoted, type Decoder } from './present.ts'
import { writeRdataName } from './name-field.ts'
import { TextError, base64, charString, ipv4, ipv6, uint } from './text.ts'

function keyNumber(name: string): number {
  const n = svcParamKeyCode(name)
  if (n !== undefined) return n
  if (/^key\d{1,5}$/.test(name)) throw new TextError(`invalid SvcParamKey ${name}`)
  throw new TextError(`unknown SvcParamKey ${name}`)
}

/** RFC 9460 §A.1 value-list: items split on unescaped commas; `\,` and `\\` unescape. */
function valueList(bytes: Uint8Array): Uint8Array[] {
  const items: Uint8Array[] = []
  let current: number[] = []
  for (let i = 0; i < bytes.length; i++) {
    const b = bytes[i] as number
    if (b === 0x5c && i + 1 < bytes.length) current.push(bytes[++i] as number)
    else if (b === 0x2c) {
      items.push(Uint8Array.from(current))
      current = []
    } else current.push(b)
  }
  items.push(Uint8Array.from(current))
  if (items.some((i) => i.length === 0)) throw new TextError('empty item in value list')
  return items
}

const ascii = (b: Uint8Array): string => String.fromCharCode(...b)

function paramValue(key: number, value: Uint8Array | undefined, present: Set<number>): Uint8Array {
  const w = new ByteWriter()
  const need = (): Uint8Array => {
    if (value === undefined || value.length === 0) throw new TextError(`key ${key} needs a value`)
    return value
  }
  switch (key) {
    case 0: {
      const keys = valueList(need()).map((k) => keyNumber(ascii(k)))
      if (new Set(keys).size !== keys.length) throw new TextError('duplicate key in mandatory')
      if (keys.includes(0)) throw new TextError('mandatory lists itself')
      for (const k of keys) if (!present.has(k)) throw new TextError(`mandatory key ${k} missing`)
      for (const k of keys.sort((x, y) => x - y)) w.u16(k)
      break
    }
    case 1:
      for (const id of valueList(need())) {
        if (id.length > 255) throw new TextError('alpn id longer than 255 octets')
        w.u8(id.length)
        w.bytes(id)
      }
      break
    case 2:
    case 8:
      if (value !== undefined && value.length > 0) throw new TextError(`key ${key} takes no value`)
      break
    case 3:
      w.u16(uint(ascii(need()), 0xffff, 'port'))
      break
    case 4:
      for (const ip of ascii(need()).split(',')) w.bytes(ipv4(ip))
      break
    case 5:
      w.bytes(base64(ascii(need()), 'ech'))
      break
    case 6:
      for (const ip of ascii(need()).split(',')) w.bytes(ipv6(ip))
      break
    case 7:
      w.bytes(need())
      break
    default:
      if (value) w.bytes(value)
  }
  return w.finish()
}

export const svcb: Encoder = (w, t) => {
  if (t.length < 2) throw new TextError('expected priority and target')
  const priority = uint(t[0], 0xffff, 'priority')
  w.u16(priority)
  writeRdataName(w, t[1], undefined)
  const raw = new Map<number, Uint8Array | undefined>()
  for (const token of t.slice(2)) {
    const eq = token.indexOf('=')
    const key = keyNumber(eq < 0 ? token : token.slice(0, eq))
    if (raw.has(key)) throw new TextError(`duplicate SvcParamKey ${key}`)
    raw.set(key, eq < 0 ? undefined : charString(token.slice(eq + 1)))
  }
  if (raw.has(2) && !raw.has(1)) throw new TextError('no-default-alpn without alpn')
  const present = new Set(raw.keys())
  for (const key of [...present].sort((x, y) => x - y)) {
    const value = paramValue(key, raw.get(key), present)
    if (value.length > 0xffff) throw new TextError('SvcParamValue too long')
    w.u16(key)
    w.u16(value.length)
    w.bytes(value)
  }
}

/**
 * One alpn id in a quoted value-list: a comma or backslash escaped for the list (`\,`, `\\`) and
 * that escape, with `"`, escaped again for the quotes; other octets outside printable ASCII as
 * `\DDD`.
 */
function alpnIdText(id: Uint8Array): string {
  let s = ''
  for (const b of id) {
    if (b === 0x2c) s += '\\\\,'
    else if (b === 0x5c) s += '\\\\\\\\'
    else if (b === 0x22) s += '\\"'
    else if (b >= 0x20 && b < 0x7f) s += String.fromCharCode(b)
    else s += `\\${String(b).padStart(3, '0')}`
  }
  return s
}

/** The values of a list of fixed-size items (addresses, keys), each `size` octets, as text. */
function items(r: Reader, value: Uint8Array, size: number, text: (b: Uint8Array) => string) {
  if (value.length === 0 || value.length % size !== 0) r.fail('SvcParam list of the wrong length')
  const out: string[] = []
  for (let at = 0; at < value.length; at += size) out.push(text(value.subarray(at, at + size)))
  return out.join(',')
}

/** One SvcParam as `key=value` (or the bare key for a key without a value). */
function paramText(r: Reader, key: number, value: Uint8Array): string {
  const name = svcParamKeyName(key)
  switch (key) {
    case 0:
      return `${name}=${items(r, value, 2, (b) => svcParamKeyName((b[0]! << 8) | b[1]!))}`
    case 1: {
      const ids: string[] = []
      for (let at = 0; at < value.length; at += 1 + value[at]!) {
        const end = at + 1 + value[at]!
        if (value[at] === 0 || end > value.length) r.fail('alpn id of the wrong length')
        ids.push(alpnIdText(value.subarray(at + 1, end)))
      }
      if (ids.length === 0) r.fail('alpn without an id')
      return `${name}="${ids.join(',')}"`
    }
    case 2:
    case 8:
      if (value.length > 0) r.fail(`${name} with a value`)
      return name
    case 3:
      if (value.length !== 2) r.fail('port of the wrong length')
      return `${name}=${(value[0]! << 8) | value[1]!}`
    case 4:
      return `${name}=${items(r, value, 4, (b) => b.join('.'))}`
    case 5:
      if (value.length === 0) r.fail('ech without a value')
      return `${name}=${base64Of(value)}`
    case 6:
      return `${name}=${items(r, value, 16, ipv6Of)}`
    default:
      return value.length === 0 ? name : `${name}=${quoted(value)}`
  }
}

/** SVCB/HTTPS wire → presentation: priority, target, each SvcParam in the wire's (ascending) order. */
export const svcbText: Decoder = (r, end) => {
  const priority = r.u16()
  const target = fqdn(nameText(r.name()))
  const params = [String(priority), target]
  for (let last = -1; r.offset < end;) {
    const key = r.u16()
    const length = r.u16()
    if (key <= last) r.fail('SvcParamKeys not in ascending order')
    if (r.offset + length > end) r.fail('SvcParam runs past its record')
    params.push(paramText(r, key, r.take(length)))
    last = key
  }
  return params.join(' ')
}
