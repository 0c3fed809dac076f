/**
 * @module names — owner/origin names: '@', relative vs absolute (trailing dot), lowercase.
 * Internally the root is '' and names carry no trailing dot; `displayName` turns root into '.'.
 */

import { endsWithUnescapedDot } from '@edgedns/dns-facts'

/** True when `text` ends with a dot that is not escaped by a backslash. */
export { endsWithUnescapedDot }

/** True when the dotted name `body` (no trailing dot, not root) has no empty label. */
function hasNoEmptyLabel(body: string): boolean {
  if (body === '' || body.startsWith('.')) return false
  for (let k = 0; k < body.length; k++) {
    const c = body[k]
    if (c === '\\') k++
    else if (c === '.' && (k + 1 === body.length || body[k + 1] === '.')) return false
  }
  return true
}

/**
 * Resolves a name as written against `origin` (internal form). Returns the absolute lowercase
 * name without trailing dot ('' for the root), or undefined when the name has an empty label.
 */
export function resolveName(text: string, origin: string): string | undefined {
  if (text === '@') return origin
  if (text === '.') return ''
  if (endsWithUnescapedDot(text)) {
    const body = text.slice(0, -1)
    return hasNoEmptyLabel(body) ? body.toLowerCase() : undefined
  }
  if (!hasNoEmptyLabel(text)) return undefined
  const lower = text.toLowerCase()
  return origin === '' ? lower : `${lower}.${origin}`
}

/** Normalises a caller-supplied origin ('Example.COM.', 'example.com', '.') to internal form. */
export function normalizeOrigin(origin: string): string {
  const trimmed = origin.trim()
  const name = resolveName(trimmed === '' || trimmed === '.' ? '.' : trimmed, '')
  if (name === undefined || trimmed === '@') throw new TypeError(`invalid origin "${origin}"`)
  return name
}

/** Internal name → public form: root is '.', everything else has no trailing dot. */
export function displayName(name: string): string {
  return name === '' ? '.' : name
}

/** Internal name → fully-qualified form with trailing dot ('.' for the root). */
export { fqdn } from '@edgedns/dns-facts'
