/** @module types/common: helpers shared by the per-type specs. */
import { fail } from '../errors.ts'
import { isIPv4 } from '../ip.ts'
import { parseHostname } from '../names.ts'

/** A target hostname that must not be an IPv4 literal; '.' only when `allowRoot`. */
export function targetHost(value: unknown, field: string, allowRoot = false): string {
  const host = parseHostname(value, field, allowRoot)
  if (isIPv4(host)) fail(`${field} must be a hostname, not an IP address`)
  return host
}

/** Parse a number from a presentation token for later schema validation (NaN if not numeric). */
export function numberToken(token: string | undefined): number | undefined {
  if (token === undefined) return undefined
  return /^-?\d+(\.\d+)?$/.test(token) ? Number(token) : Number.NaN
}
