/**
 * @module SVCB and HTTPS (RFC 9460): priority, target, SvcParams in ascending key order.
 */
import { svcParamKeyCode } from '@edgedns/dns-facts'
import { ByteWriter } from '../writer.ts'
import type { Encoder } from './basic.ts'
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
