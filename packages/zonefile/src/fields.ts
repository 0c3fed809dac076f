/**
 * @module fields — the part of a resource record after the owner: optional TTL and class in
 * either order, then the type mnemonic, then at least one rdata token.
 */
import { ZoneFileError } from './errors.ts'
import { after, type Token } from './lexer.ts'
import { parseTtl } from './ttl.ts'

export interface RecordFields {
  /** Explicit TTL, when one was written. */
  ttl?: number
  /** Uppercase type mnemonic (or TYPEnnn). */
  type: string
  /** The rdata tokens (never empty). */
  rdata: Token[]
}

const OTHER_CLASSES = new Set(['CH', 'CHAOS', 'HS', 'HESIOD', 'CS', 'CSNET', 'NONE', 'ANY'])
const TYPE = /^[A-Z][A-Z0-9-]*$/

function isClass(upper: string): boolean {
  return upper === 'IN' || OTHER_CLASSES.has(upper) || /^CLASS\d+$/.test(upper)
}

/** Parses `tokens[from..]` as `[ttl] [class] type rdata…` (TTL and class in either order). */
export function parseFields(tokens: Token[], from: number): RecordFields {
  let k = from
  let ttl: number | undefined
  let seenClass = false
  for (;;) {
    const token = tokens[k]
    if (!token || token.quoted) break
    const upper = token.text.toUpperCase()
    const first = token.text.charCodeAt(0)
    if (ttl === undefined && first >= 48 && first <= 57) {
      ttl = parseTtl(token.text)
      if (ttl === undefined) throw new ZoneFileError(`bad TTL "${token.text}"`, token)
    } else if (!seenClass && isClass(upper)) {
      if (upper !== 'IN' && upper !== 'CLASS1') {
        throw new ZoneFileError(`unsupported class ${token.text}`, token)
      }
      seenClass = true
    } else {
      break
    }
    k++
  }
  const typeToken = tokens[k]
  if (!typeToken) throw new ZoneFileError('missing record type', after(tokens[k - 1]!))
  const type = typeToken.text.toUpperCase()
  if (typeToken.quoted || !TYPE.test(type)) {
    throw new ZoneFileError(`bad record type "${typeToken.text}"`, typeToken)
  }
  if (k + 1 >= tokens.length) throw new ZoneFileError('missing rdata', after(typeToken))
  const rdata = tokens.slice(k + 1)
  return ttl === undefined ? { type, rdata } : { ttl, type, rdata }
}

/**
 * A quoted SvcParam value written right after its `key=` (`alpn="h2,h3"`, RFC 9460) belongs to
 * the key. The lexer splits it off, as BIND's does, so that in any other type (a TXT
 * `foo="bar baz"`) it is a character-string of its own.
 */
function isSvcParamValue(prev: Token, token: Token): boolean {
  return (
    token.quoted &&
    !prev.quoted &&
    prev.text.endsWith('=') &&
    prev.line === token.line &&
    prev.column + prev.text.length === token.column
  )
}

const SVCB_LIKE = new Set(['SVCB', 'HTTPS'])

/**
 * What goes before each rdata token when they are joined: one space, or nothing for a quoted
 * SvcParam value of an SVCB/HTTPS record (the first token gets '').
 */
export function rdataSeparators(tokens: Token[], type: string): string[] {
  const svcb = SVCB_LIKE.has(type)
  return tokens.map((token, k) =>
    k === 0 || (svcb && isSvcParamValue(tokens[k - 1]!, token)) ? '' : ' '
  )
}

/** Joins rdata tokens with single spaces (an SVCB/HTTPS `key="value"` stays whole). */
export function joinRdata(tokens: Token[], type: string): string {
  if (SVCB_LIKE.has(type)) {
    const seps = rdataSeparators(tokens, type)
    return tokens.map((t, k) => seps[k] + t.text).join('')
  }
  let out = tokens[0]?.text ?? ''
  for (let k = 1; k < tokens.length; k++) out += ' ' + tokens[k]!.text
  return out
}
