/**
 * @module svcparams: SVCB/HTTPS SvcParams (RFC 9460 §2.1, §7, appendix A; RFC 9461 dohpath;
 * RFC 9540 ohttp) parsing, validation and canonical presentation, keys in ascending key-number
 * order. Values are character-strings: escapes are decoded on input, and the canonical form quotes
 * alpn, dohpath and opaque values and escapes what they hold, so it is always one line that
 * zone-file readers and the wire encoder read back to the same octets.
 */
import { SVC_PARAM_KEYS, svcParamKeyCode, svcParamKeyName } from '@edgedns/dns-facts'
import { parseBase64 } from './encoding.ts'
import { escapeBytes, strictText, text, unescapeText } from './charstring.ts'
import { FieldError, fail } from './errors.ts'
import { canonicalIPv6, isIPv4 } from './ip.ts'

/** Registered SvcParamKeys by number (from the table in `@edgedns/dns-facts`). */
export const SVC_KEYS = SVC_PARAM_KEYS

export interface SvcParam {
  /** presentation key name (`alpn`, `key65000` ...) */
  key: string
  /** SvcParamKey number */
  code: number
  /**
   * canonical presentation value without surrounding quotes (a quote and a backslash escaped
   * with a backslash, control and non-UTF-8 octets as `\DDD`), or null when the key has no value
   */
  value: string | null
}

const F = 'data.value'

function keyCode(name: string): number {
  return svcParamKeyCode(name) ?? fail(`${F} has an unknown SvcParam key "${name}"`)
}

const keyName = svcParamKeyName

interface RawParam {
  key: string
  /** the value as written, without surrounding quotes and with escapes not yet decoded */
  raw: string | null
}

const isSpace = (c: string): boolean => c === ' ' || c === '\t' || c === '\n' || c === '\r'

/**
 * Split `key[=value]` items. A value is a character-string (RFC 9460 appendix A): in double quotes
 * (spaces allowed, `\"` for a quote) or bare up to the next whitespace, where a double quote is
 * an ordinary character. Backslash escapes are kept for decodeValue.
 */
function scan(s: string): RawParam[] {
  const items: RawParam[] = []
  let i = 0
  const n = s.length
  while (i < n) {
    while (i < n && isSpace(s.charAt(i))) i++
    if (i >= n) break
    const start = i
    while (i < n && s.charAt(i) !== '=' && !isSpace(s.charAt(i))) i++
    const key = s.slice(start, i).toLowerCase()
    if (s.charAt(i) !== '=') {
      items.push({ key, raw: null })
      continue
    }
    i++
    if (s.charAt(i) === '"') {
      let j = i + 1
      while (j < n && s.charAt(j) !== '"') j += s.charAt(j) === '\\' ? 2 : 1
      if (j >= n) fail(`${F} has an unterminated quoted value for "${key}"`)
      items.push({ key, raw: s.slice(i + 1, j) })
      i = j + 1
      if (i < n && !isSpace(s.charAt(i))) {
        fail(`${F}: the quoted value of "${key}" must be followed by a space`)
      }
    } else {
      let j = i
      while (j < n && !isSpace(s.charAt(j))) j += s.charAt(j) === '\\' ? 2 : 1
      items.push({ key, raw: s.slice(i, Math.min(j, n)) })
      i = j
    }
  }
  return items
}

/** The value's octets, escapes decoded. */
function decodeValue(key: string, raw: string): Uint8Array {
  try {
    return unescapeText(raw)
  } catch (e) {
    if (e instanceof FieldError) fail(`${F}: the value of "${key}" has a bad escape: ${e.message}`)
    throw e
  }
}

function list(key: string, raw: string | null): string[] {
  if (raw === null || raw === '') fail(`${F}: "${key}" needs a value`)
  // A value-list escapes commas twice (RFC 9460 appendix A.1); no list item here needs either.
  if (raw.includes('\\')) fail(`${F}: "${key}" must not contain backslash escapes`)
  const parts = raw.split(',')
  if (parts.some((p) => p === '')) fail(`${F}: "${key}" has an empty list item`)
  return parts
}

function noValue(key: string, raw: string | null): null {
  if (raw !== null && raw !== '') fail(`${F}: "${key}" takes no value`)
  return null
}

/** Printable ASCII text of a value that has no use for escapes (port, hints, ech). */
function plain(key: string, raw: string | null): string {
  if (raw === null || raw === '') fail(`${F}: "${key}" needs a value`)
  return text(decodeValue(key, raw))
}

// eslint-disable-next-line no-control-regex
const CONTROL = /[\x00-\x1f\x7f]/

// RFC 6570 expression: an optional operator, then varspecs (a name, with `*` or `:<length>`).
const VARNAME = '(?:[A-Za-z0-9_]|%[0-9A-Fa-f]{2})(?:\\.?(?:[A-Za-z0-9_]|%[0-9A-Fa-f]{2}))*'
const VARSPEC = `${VARNAME}(?:\\*|:[1-9]\\d{0,3})?`
const EXPRESSION = new RegExp(`^[+#./;?&]?${VARSPEC}(?:,${VARSPEC})*$`)

/**
 * RFC 9461: a relative URI template (RFC 6570), UTF-8 text starting with `/`, with a `dns`
 * variable; control characters can never belong in one.
 */
function dohpath(raw: string | null): string {
  if (raw === null || raw === '') fail(`${F}: "dohpath" needs a value`)
  const bytes = decodeValue('dohpath', raw)
  const value = strictText(bytes)
  if (value === null) fail(`${F}: "dohpath" must be UTF-8 text`)
  if (CONTROL.test(value)) fail(`${F}: "dohpath" must not contain control characters`)
  if (!value.startsWith('/')) fail(`${F}: "dohpath" must start with "/"`)
  let dns = false
  for (const part of value.split(/(\{[^{}]*\})/)) {
    if (part.startsWith('{')) {
      const body = part.slice(1, -1)
      if (!EXPRESSION.test(body)) fail(`${F}: "dohpath" has an invalid expression "${part}"`)
      const names = body.replace(/^[+#./;?&]/, '').split(',')
      if (names.some((n) => n.replace(/(\*|:\d+)$/, '') === 'dns')) dns = true
    } else if (/[{}]/.test(part)) {
      fail(`${F}: "dohpath" has an unbalanced "{" or "}"`)
    }
  }
  if (!dns) fail(`${F}: "dohpath" must contain the "dns" variable, as in "/dns-query{?dns}"`)
  return escapeBytes(bytes)
}

/** Canonical presentation value (without quotes, escaped for use inside them), or null. */
function canonicalValue(code: number, key: string, raw: string | null): string | null {
  switch (code) {
    case 0: {
      const codes = list(key, raw).map(keyCode)
      if (codes.includes(0)) fail(`${F}: "mandatory" must not list itself`)
      if (new Set(codes).size !== codes.length) fail(`${F}: "mandatory" lists a key twice`)
      return codes
        .sort((a, b) => a - b)
        .map(keyName)
        .join(',')
    }
    case 1: {
      const ids = list(key, raw)
      for (const id of ids) {
        if (!/^[\x21-\x7e]+$/.test(id) || id.includes('"')) {
          fail(`${F}: alpn id "${id}" must be printable ASCII without quotes or backslashes`)
        }
        if (id.length > 255) fail(`${F}: alpn id "${id}" is longer than 255 octets`)
      }
      return ids.join(',')
    }
    case 2:
    case 8:
      return noValue(key, raw)
    case 3: {
      const value = raw === null ? '' : plain(key, raw)
      if (!/^\d{1,5}$/.test(value) || Number(value) > 65535) {
        fail(`${F}: port must be an integer between 0 and 65535`)
      }
      return String(Number(value))
    }
    case 4:
      return list(key, raw)
        .map((ip) => (isIPv4(ip) ? ip : fail(`${F}: ipv4hint "${ip}" is not an IPv4 address`)))
        .join(',')
    case 5:
      return parseBase64(raw === null ? '' : plain(key, raw), `${F} ech`)
    case 6:
      return list(key, raw)
        .map((ip) => canonicalIPv6(ip) ?? fail(`${F}: ipv6hint "${ip}" is not an IPv6 address`))
        .join(',')
    case 7:
      return dohpath(raw)
    default: {
      const bytes = raw === null ? new Uint8Array(0) : decodeValue(key, raw)
      if (bytes.length > 65535) fail(`${F}: the value of "${key}" is longer than 65535 octets`)
      return bytes.length === 0 ? null : escapeBytes(bytes)
    }
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
    params.push({ key: keyName(code), code, value: canonicalValue(code, item.key, item.raw) })
  }
  params.sort((a, b) => a.code - b.code)
  const mandatory = params.find((p) => p.code === 0)
  for (const k of mandatory?.value?.split(',') ?? []) {
    if (!seen.has(keyCode(k))) fail(`${F}: mandatory key "${k}" is missing`)
  }
  if (seen.has(2) && !seen.has(1)) fail(`${F}: "no-default-alpn" requires "alpn"`)
  return params
}

/**
 * Read SvcParams as the earlier parser stored them: it wrote alpn, dohpath and unknown-key values
 * between quotes verbatim, so a `"` inside such a value was not escaped (`dohpath="/q"(x{?dns}"`)
 * and a value could hold blanks. Items are split before each blank followed by a known key name;
 * a `"` inside a quoted value that is not already escaped is escaped, and the result is read by
 * parseSvcParams, so whatever comes back is valid and canonical today.
 */
export function parseLegacySvcParams(input: string): SvcParam[] {
  const items: string[] = []
  let start = 0
  const boundary = /\s+(?=([A-Za-z][A-Za-z0-9-]*)(?:[=\s]|$))/g
  const s = input.trim()
  for (const m of s.matchAll(boundary)) {
    if (svcParamKeyCode((m[1] as string).toLowerCase()) === undefined) continue
    items.push(s.slice(start, m.index))
    start = m.index + m[0].length
  }
  items.push(s.slice(start))
  const escaped = items.map((item) => {
    const m = /^([^="\s]+)="([\s\S]*)"$/.exec(item)
    if (!m) return item
    return `${m[1] as string}="${(m[2] as string).replace(/(?<!\\)"/g, '\\"')}"`
  })
  return parseSvcParams(escaped.join(' '))
}

/**
 * Stored params as zone files carry them: canonical, later key names written by number. A value an
 * earlier, laxer parser stored is read as it wrote it (parseLegacySvcParams); a value that is not
 * valid even so is a FieldError naming why.
 */
export function presentSvcParams(stored: string): string {
  try {
    return formatSvcParams(parseSvcParams(stored), true)
  } catch (e) {
    if (!(e instanceof FieldError)) throw e
    try {
      return formatSvcParams(parseLegacySvcParams(stored), true)
    } catch (legacy) {
      if (!(legacy instanceof FieldError)) throw legacy
      throw new FieldError(`the stored SvcParams are not valid: ${legacy.message}`)
    }
  }
}

const QUOTED = new Set([1, 7])

/** Keys up to dohpath are named in RFC 9460 and 9461, which every zone-file reader knows. */
const LAST_PORTABLE_NAME = 7

/**
 * Canonical presentation: `key=value` with alpn/dohpath/unknown values quoted. With `portable`,
 * keys registered after dohpath (ohttp) are written `keyNNNNN`, which readers that do not know
 * their names (BIND 9.18) still read.
 */
export function formatSvcParams(params: readonly SvcParam[], portable = false): string {
  return params
    .map((p) => {
      const key = portable && p.code > LAST_PORTABLE_NAME ? `key${p.code}` : p.key
      if (p.value === null) return key
      const quoted = QUOTED.has(p.code) || p.code >= SVC_KEYS.length
      return quoted ? `${key}="${p.value}"` : `${key}=${p.value}`
    })
    .join(' ')
}
