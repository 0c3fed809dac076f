/**
 * @module names: owner-name, zone-name and target-hostname normalisation
 * (lowercase Punycode FQDN without trailing dot).
 */
import { withoutTrailingDot } from '@edgedns/dns-facts'
import { text, unescapeText } from './charstring.ts'
import { ERROR_CODES, FieldError, RecordError, fail } from './errors.ts'
import { idnaToAscii } from './idna.ts'
import { withReason } from './message.ts'

const MAX_LABEL = 63
const MAX_NAME = 253
const LABEL_RE = /^[a-z0-9_-]+$/
const IDN_DOTS = /[\u3002\uff0e\uff61]/g
// Plain ASCII without Punycode labels needs no UTS 46 processing, only lowercasing.
// eslint-disable-next-line no-control-regex
const PLAIN_ASCII_RE = /^[\x00-\x7f]*$/
const PUNYCODE_LABEL = /(^|\.)xn--/i

/**
 * A dotless-at-the-end name → lowercase ASCII: UTS 46 mapping and IDNA2008 validity for anything
 * non-ASCII or holding a Punycode label (decoded and validated too), lowercasing for the rest.
 */
function toAscii(name: string): string {
  if (PLAIN_ASCII_RE.test(name) && !PUNYCODE_LABEL.test(name)) return name.toLowerCase()
  return idnaToAscii(name)
}

/** Split a dotless-at-the-end name into checked lowercase ASCII labels. */
function toLabels(name: string, allowWildcard: boolean): string[] {
  if (name === '') fail('the name is empty')
  const split = name.replace(IDN_DOTS, '.').split('.')
  split.forEach((label, i) => {
    if (label === '') fail('the name has an empty label')
    if (label === '*' && (!allowWildcard || i !== 0))
      fail(`'*' is only allowed as the entire leftmost label`)
  })
  const wildcard = split[0] === '*'
  const rest = wildcard ? split.slice(1) : split
  if (rest.length === 0) return ['*']
  const ascii = toAscii(rest.join('.')).split('.')
  if (ascii.length !== rest.length) fail('the name has an empty label')
  const out = ascii.map((label, i) => {
    if (label === '') fail('the name has an empty label')
    if (!LABEL_RE.test(label)) {
      fail(`label ${JSON.stringify(rest[i])} may only contain letters, digits, '-' and '_'`)
    }
    if (label.length > MAX_LABEL) fail(`label "${label}" is longer than ${MAX_LABEL} octets`)
    return label
  })
  if (wildcard) out.unshift('*')
  checkLength(out.join('.'))
  return out
}

function checkLength(name: string): void {
  if (name.length > MAX_NAME) fail(`the name is longer than ${MAX_NAME} octets`)
}

const trimDot = withoutTrailingDot

function asString(value: unknown, what: string): string {
  if (typeof value !== 'string') fail(`${what} must be a string`)
  return value.trim()
}

// Letters, digits, '-' and '_' in labels of 1-63 octets, no wildcard, no Punycode label: what
// toLabels would only lowercase. Tested before lowercasing, so no non-ASCII character gets in.
const PLAIN_HOSTNAME = /^(?:[A-Za-z0-9_-]{1,63}\.)*[A-Za-z0-9_-]{1,63}$/

/** The hostname lowercased when it needs nothing else (the common case), else null. */
function plainHostname(host: string): string | null {
  if (host.length > MAX_NAME || !PLAIN_HOSTNAME.test(host) || PUNYCODE_LABEL.test(host)) return null
  return host.toLowerCase()
}

/** Internal: normalise a hostname used inside rdata; throws FieldError naming `field`. */
export function parseHostname(host: unknown, field: string, allowRoot = false): string {
  const h = asString(host, field)
  if (h === '.') {
    if (allowRoot) return '.'
    fail(`${field} must be a hostname, not the root '.'`)
  }
  if (h === '') fail(`${field} is required`)
  const plain = plainHostname(trimDot(h))
  if (plain !== null) return plain
  try {
    return toLabels(trimDot(h), false).join('.')
  } catch (e) {
    if (e instanceof FieldError) fail(`${field} is not a valid hostname: ${e.message}`)
    throw e
  }
}

/** Internal: zone name rules, throwing FieldError. */
function zoneLabels(name: unknown): string {
  const n = trimDot(asString(name, 'the zone name'))
  const labels = toLabels(n, false)
  if (labels.length < 2) fail('a zone name needs at least two labels')
  return labels.join('.')
}

/**
 * Normalise a zone name: lowercase Punycode, no trailing dot, no wildcard, at least two labels.
 * @example normalizeZoneName('Bücher.Example.') // 'xn--bcher-kva.example'
 */
export function normalizeZoneName(name: string): string {
  try {
    return zoneLabels(name)
  } catch (e) {
    if (e instanceof FieldError) {
      throw new RecordError(ERROR_CODES.ZONE_NAME_INVALID, `Invalid zone name: ${e.message}`)
    }
    throw e
  }
}

/**
 * Normalise a record owner name inside `zoneName`. Accepts '@', relative names, and FQDNs with or
 * without the trailing dot; a name that does not end in the zone is taken as relative
 * (Cloudflare: 'site2.com' in zone 'site1.com' becomes 'site2.com.site1.com').
 * @example normalizeName('WWW', 'example.com') // 'www.example.com'
 */
export function normalizeName(name: string, zoneName: string): string {
  const zone = cachedZoneName(zoneName)
  const fast = fastPath(name, zone)
  if (fast !== null) return fast
  try {
    const n = asString(name, 'the name')
    if (n === '@' || n === '@.') return zone
    const fqdn = toLabels(trimDot(n), true).join('.')
    if (fqdn === zone || fqdn.endsWith(`.${zone}`)) return fqdn
    const full = `${fqdn}.${zone}`
    checkLength(full)
    return full
  } catch (e) {
    if (e instanceof FieldError) {
      throw new RecordError(ERROR_CODES.NAME_INVALID, withReason('DNS name is invalid.', e.message))
    }
    throw e
  }
}

// Plain lowercase-able ASCII names (the vast majority) skip the per-label work; every label 1-63
// octets, '*' only leftmost. Anything else takes the full path above.
const FAST_NAME = /^(?:\*\.)?(?:[a-z0-9_-]{1,63}\.)*[a-z0-9_-]{1,63}$/
const FAST_PUNYCODE = /(^|\.)xn--/
let lastZoneIn = ''
let lastZoneOut = ''

/** Batches normalise thousands of names in one zone: remember the last zone name. */
function cachedZoneName(zoneName: string): string {
  if (zoneName !== lastZoneIn) {
    lastZoneOut = normalizeZoneName(zoneName)
    lastZoneIn = zoneName
  }
  return lastZoneOut
}

function fastPath(name: unknown, zone: string): string | null {
  if (typeof name !== 'string') return null
  const n = (name.endsWith('.') ? name.slice(0, -1) : name).toLowerCase()
  if (n.length > MAX_NAME || !FAST_NAME.test(n) || FAST_PUNYCODE.test(n)) return null
  if (n === zone || n.endsWith(`.${zone}`)) return n
  const full = `${n}.${zone}`
  return full.length <= MAX_NAME ? full : null
}

/**
 * Normalise a hostname used as record content: lowercase Punycode without trailing dot; the root
 * '.' is returned unchanged (callers decide whether their type allows it).
 */
export function normalizeHostname(host: string): string {
  try {
    return parseHostname(host, 'the hostname', true)
  } catch (e) {
    if (e instanceof FieldError) {
      throw new RecordError(ERROR_CODES.NAME_INVALID, withReason('DNS name is invalid.', e.message))
    }
    throw e
  }
}

/** Name with exactly one trailing dot (root stays '.'), for presentation format. */
export { fqdn } from '@edgedns/dns-facts'

/**
 * Resolve a zone-file name against `origin`: '@' is the origin, a trailing dot marks an absolute
 * name, anything else is relative. Result has no trailing dot ('.' for the root).
 */
export function absolutize(name: string, origin: string): string {
  const o = trimDot(origin)
  if (name === '@') return o === '' ? '.' : o
  if (name === '.') return '.'
  if (name.endsWith('.')) return name.slice(0, -1)
  return o === '' ? name : `${name}.${o}`
}

/** One label of a zone-file name with its escapes decoded; a dot inside it is refused. */
function decodeLabel(written: string): string {
  if (!written.includes('\\')) return written
  const label = text(unescapeText(written))
  if (label.includes('.')) {
    fail(
      `label ${JSON.stringify(label)} contains a dot (written \\.), which this API does not allow in names`
    )
  }
  return label
}

/**
 * A zone-file name as written → the same name with its `\DDD` and `\X` escapes decoded, label by
 * label, keeping a trailing dot. Our labels hold only letters, digits, '-' and '_', so a dot
 * escaped inside a label (`a\.b`, one label) is refused: splitting it would change the name.
 * Internal (API content of SRV and NAPTR takes zone-file escapes too); throws FieldError.
 */
export function decodeName(written: string): string {
  if (!written.includes('\\')) return written
  const labels: string[] = []
  let start = 0
  for (let k = 0; k < written.length; k++) {
    const c = written.charCodeAt(k)
    if (c === 0x5c)
      k++ // the escaped character (or a \DDD's first digit) is never a separator
    else if (c === 0x2e) {
      labels.push(written.slice(start, k))
      start = k + 1
    }
  }
  labels.push(written.slice(start))
  return labels.map(decodeLabel).join('.')
}

/**
 * Internal: a name in zone-file rdata as written (escapes undecoded) → absolute, without trailing
 * dot, like `absolutize`, its escapes decoded (see decodeName). Throws FieldError.
 */
export function nameFromPresentation(written: string, origin: string): string {
  if (!written.includes('\\')) return absolutize(written, origin)
  const name = decodeName(written)
  // Every escaped dot was refused, so a trailing dot left now is the absolute-name marker.
  if (name.endsWith('.')) return name.slice(0, -1)
  const o = trimDot(origin)
  return o === '' ? name : `${name}.${o}`
}

/**
 * A zone-file owner name (absolute, escapes undecoded, as the zone-file parser gives it) with its
 * escapes decoded and lowercased, for normalizeName; an escaped dot is refused.
 * @example ownerFromPresentation('o\\065wner.example.com') // 'oawner.example.com'
 */
export function ownerFromPresentation(name: string): string {
  try {
    return decodeName(name).toLowerCase()
  } catch (e) {
    if (e instanceof FieldError) {
      throw new RecordError(ERROR_CODES.NAME_INVALID, withReason('DNS name is invalid.', e.message))
    }
    throw e
  }
}
