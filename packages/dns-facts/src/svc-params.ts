/**
 * @module SVCB/HTTPS SvcParamKeys (RFC 9460 §14.3.2 registry; RFC 9461 dohpath, RFC 9540 ohttp).
 */

/** Registered SvcParamKey names, indexed by key number. */
export const SVC_PARAM_KEYS = Object.freeze([
  'mandatory',
  'alpn',
  'no-default-alpn',
  'port',
  'ipv4hint',
  'ech',
  'ipv6hint',
  'dohpath',
  'ohttp',
] as const)

/** Key number of a registered name or of `keyNNNNN` (≤ 65534; 65535 is reserved); else undefined. */
export function svcParamKeyCode(name: string): number | undefined {
  const known = (SVC_PARAM_KEYS as readonly string[]).indexOf(name)
  if (known >= 0) return known
  const m = /^key(\d{1,5})$/.exec(name)
  if (!m) return undefined
  const n = Number(m[1])
  return n <= 65534 ? n : undefined
}

/** Presentation name of a key number: its registered name, or `keyNNNNN`. */
export function svcParamKeyName(code: number): string {
  return SVC_PARAM_KEYS[code] ?? `key${code}`
}
