/** @module message: composing user-facing error messages from a base text and a reason. */

/**
 * 'DNS name is invalid.' + 'the name is empty' -> 'DNS name is invalid. The name is empty.'
 * A reason that starts with a field path (`data.flags ...`) keeps its case.
 */
export function withReason(base: string, reason: string): string {
  const first = reason.split(' ', 1)[0] ?? ''
  const r = first.includes('.') ? reason : reason.charAt(0).toUpperCase() + reason.slice(1)
  return `${base} ${r.endsWith('.') ? r : `${r}.`}`
}
