/**
 * @module svcparams: SVCB/HTTPS SvcParams (RFC 9460 §2.1, §7; RFC 9461 dohpath; RFC 9540 ohttp)
 * parsing, validation and canonical presentation, keys in ascending key-number order.
 */
import { SVC_PARAM_KEYS, svcParamKeyCode, svcParamKeyName } from '@edgedns/dns-facts'
import { parseBase64 } from './encoding.ts'
import { fail } from './errors.ts'
import { canonicalIPv6, isIPv4 } from './ip.ts'

/** Registered SvcParamKeys by number (from the table in `@edgedns/dns-facts`). */
export const SVC_KEYS = SVC_PARAM_KEYS

export interface SvcParam {
  /** presentation key name (`alpn`, `key65000` ...) */
  key: string
  /** SvcParamKey number */
  code: number
  /** canonical value without surrounding quotes, or null when the key takes no value */
  value: string | null
}

const F = 'data.value'

function keyCode(name: string): number {
  return svcParamKeyCode(name) ?? fail(`${F} has an unknown SvcParam key "${name}"`)
}

const keyName = svcParamKeyName

/** Split `key[=value]` items; quoted values may contain spaces. */
function scan(input: string): { key: string; value: string | null }[] {
  const items: { key: string; value: string | null }[] = []
  let i = 0
  const s = input.trim()
  while (i < s.length) {
    while (i < s.length && /\s/.test(s.charAt(i))) i++
    if (i >= s.length) break
    const start = i
    while (i < s.length && s.charAt(i) !== '=' && !/\s/.test(s.charAt(i))) i++
    const key = s.slice(start, i).toLowerCase()
    if (s.charAt(i) !== '=') {
      items.push({ key, value: null })
      continue
    }
    i++
    let value = ''
    if (s.charAt(i) === '"') {
      i++
      while (i < s.length && s.charAt(i) !== '"') {
        if (s.charAt(i) === '\\') value += s.charAt(i++)
        value += s.charAt(i++)
      }
      if (s.charAt(i) !== '"') fail(`${F} has an unterminated quoted value for "${key}"`)
      i++
    } else {
      while (i < s.length && !/\s/.test(s.charAt(i))) value += s.charAt(i++)
    }
    items.push({ key, value })
  }
  return items
}

function list(key: string, value: string | null): string[] {
  if (value === null || value === '') fail(`${F}: "${key}" needs a value`)
  const parts = value.split(',')
  if (parts.some((p) => p === '')) fail(`${F}: "${key}" has an empty list item`)
  return parts
}

function noValue(key: string, value: string | null): null {
  if (value !== null && value !== '') fail(`${F}: "${key}" takes no value`)
  return null
}

function canonicalValue(code: number, key: string, value: string | null): string | null {
  switch (code) {
    case 0: {
      const codes = list(key, value).map(keyCode)
      if (codes.includes(0)) fail(`${F}: "mandatory" must not list itself`)
      if (new Set(codes).size !== codes.length) fail(`${F}: "mandatory" lists a key twice`)
      return codes
        .sort((a, b) => a - b)
        .map(keyName)
        .join(',')
    }
    case 1: {
      const ids = list(key, value)
      for (const id of ids) {
        if (!/^[\x21-\x7e]+$/.test(id) || /["\\]/.test(id)) {
          fail(`${F}: alpn id "${id}" must be printable ASCII without quotes or backslashes`)
        }
      }
      return ids.join(',')
    }
    case 2:
    case 8:
      return noValue(key, value)
    case 3: {
      if (value === null || !/^\d{1,5}$/.test(value) || Number(value) > 65535) {
        fail(`${F}: port must be an integer between 0 and 65535`)
      }
      return String(Number(value))
    }
    case 4:
      return list(key, value)
        .map((ip) => (isIPv4(ip) ? ip : fail(`${F}: ipv4hint "${ip}" is not an IPv4 address`)))
        .join(',')
    case 5:
      return parseBase64(value ?? '', `${F} ech`)
    case 6:
      return list(key, value)
        .map((ip) => canonicalIPv6(ip) ?? fail(`${F}: ipv6hint "${ip}" is not an IPv6 address`))
        .join(',')
    case 7:
      if (value === null || value === '') fail(`${F}: "dohpath" needs a value`)
      return value
    default:
      return value === '' ? null : value
  }
}

/** Parse and validate a SvcParams string; returns params sorted by key number. */
export function parseSvcParams(input: string): SvcParam[] {
  const params: SvcParam[] = []
  const seen = new Set<number>()
  for (const item of scan(input)) {
    const code = keyCode(item.key)
    if (seen.has(code)) fail(`${F} lists "${keyName(code)}" more than once`)
    seen.add(code)
    params.push({ key: keyName(code), code, value: canonicalValue(code, item.key, item.value) })
  }
  params.sort((a, b) => a.code - b.code)
  const mandatory = params.find((p) => p.code === 0)
  for (const k of mandatory?.value?.split(',') ?? []) {
    if (!seen.has(keyCode(k))) fail(`${F}: mandatory key "${k}" is missing`)
  }
  if (seen.has(2) && !seen.has(1)) fail(`${F}: "no-default-alpn" requires "alpn"`)
  return params
}

const QUOTED = new Set([1, 7])

/** Canonical presentation: `key=value` with alpn/dohpath/unknown values quoted. */
export function formatSvcParams(params: readonly SvcParam[]): string {
  return params
    .map((p) => {
      if (p.value === null) return p.key
      const quoted = QUOTED.has(p.code) || p.code >= SVC_KEYS.length
      return quoted ? `${p.key}="${p.value}"` : `${p.key}=${p.value}`
    })
    .join(' ')
}
