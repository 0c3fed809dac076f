/** @module encoding: hex and base64 field validation with canonical output. */
import { fail } from './errors.ts'

const HEX_RE = /^[0-9a-f]+$/
const B64_RE = /^[A-Za-z0-9+/]+={0,2}$/

/**
 * Canonical lowercase hex (whitespace removed). `length` is the required digit count when the
 * length is fixed by another field (e.g. DS digest type 2 -> 64 digits).
 */
export function parseHex(value: unknown, field: string, length?: number): string {
  if (typeof value !== 'string') fail(`${field} must be a hex string`)
  const hex = value.replace(/\s+/g, '').toLowerCase()
  if (hex === '') fail(`${field} is required`)
  if (!HEX_RE.test(hex)) fail(`${field} must contain only hex digits`)
  if (hex.length % 2 !== 0) fail(`${field} must have an even number of hex digits`)
  if (length !== undefined && hex.length !== length) {
    fail(`${field} must be ${length} hex digits long`)
  }
  return hex
}

/** Canonical base64 (whitespace removed, standard alphabet, correct padding). */
export function parseBase64(value: unknown, field: string): string {
  if (typeof value !== 'string') fail(`${field} must be a base64 string`)
  const b64 = value.replace(/\s+/g, '')
  if (b64 === '') fail(`${field} is required`)
  if (!B64_RE.test(b64) || b64.length % 4 !== 0) fail(`${field} must be valid base64`)
  return b64
}
