/**
 * @module Presentation-name normalisation shared by every package: trailing dots (escape-aware),
 * ASCII-only case folding (DNS names compare case-insensitively in ASCII only, RFC 4343), and
 * the lookup form used for keys and comparisons. IDNA and validation live in `@edgedns/records`.
 */

/** True when `name` ends with a dot that is not escaped by a backslash (`a\.` does not). */
export function endsWithUnescapedDot(name: string): boolean {
  if (!name.endsWith('.')) return false
  let slashes = 0
  for (let k = name.length - 2; k >= 0 && name[k] === '\\'; k--) slashes++
  return slashes % 2 === 0
}

/** The name with exactly one trailing dot; '' and '.' are the root '.'. */
export function fqdn(name: string): string {
  if (name === '' || name === '.') return '.'
  return endsWithUnescapedDot(name) ? name : `${name}.`
}

/** The name without its trailing (unescaped) dot; the root '.' becomes ''. */
export function withoutTrailingDot(name: string): string {
  return endsWithUnescapedDot(name) ? name.slice(0, -1) : name
}

const UPPER_ASCII = /[A-Z]/

/** ASCII letters lowercased; every other character (escapes, UTF-8) kept as is. */
export function lowerAscii(name: string): string {
  return UPPER_ASCII.test(name) ? name.replace(/[A-Z]/g, (c) => c.toLowerCase()) : name
}

/** Lookup form: ASCII-lowercase, no trailing dot, root ''. Two names are equal when these are. */
export function lookupName(name: string): string {
  return withoutTrailingDot(lowerAscii(name))
}
