/**
 * @module ip: IPv4 and IPv6 text as `@edgedns/dns-wire` reads it (one grammar for validation and
 * encoding), and the RFC 5952 canonical text of an IPv6 address.
 */
import { ipv6, isIPv4, TextError } from '@edgedns/dns-wire'

/** Dotted-quad IPv4 only: four decimal octets 0..255, no leading zeros. */
export { isIPv4 }

/** An IPv6 address (with optional embedded IPv4 tail) as 8 16-bit words, or null. */
function parseIPv6(s: string): number[] | null {
  let bytes: Uint8Array
  try {
    bytes = ipv6(s)
  } catch (e) {
    if (e instanceof TextError) return null
    throw e
  }
  const words: number[] = []
  for (let i = 0; i < 16; i += 2) words.push(((bytes[i] as number) << 8) | (bytes[i + 1] as number))
  return words
}

/** RFC 5952 text: lowercase, no leading zeros, longest (first) run of 2+ zero words as '::'. */
function formatIPv6(words: readonly number[]): string {
  const w = words.map((x) => x & 0xffff)
  const isMapped = w.slice(0, 5).every((x) => x === 0) && w[5] === 0xffff
  if (isMapped) {
    const a = w[6] ?? 0
    const b = w[7] ?? 0
    return `::ffff:${a >> 8}.${a & 0xff}.${b >> 8}.${b & 0xff}`
  }
  let bestStart = -1
  let bestLen = 0
  for (let i = 0; i < 8;) {
    if (w[i] !== 0) {
      i++
      continue
    }
    let j = i
    while (j < 8 && w[j] === 0) j++
    if (j - i > bestLen) {
      bestStart = i
      bestLen = j - i
    }
    i = j
  }
  const hex = w.map((x) => x.toString(16))
  if (bestLen < 2) return hex.join(':')
  const left = hex.slice(0, bestStart).join(':')
  const right = hex.slice(bestStart + bestLen).join(':')
  return `${left}::${right}`
}

/** Canonical IPv6 text for `s`, or null when it is not a valid IPv6 address. */
export function canonicalIPv6(s: string): string | null {
  const words = parseIPv6(s)
  return words ? formatIPv6(words) : null
}
