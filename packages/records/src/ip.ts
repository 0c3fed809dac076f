/** @module ip: strict IPv4 parsing and IPv6 parsing with RFC 5952 canonical formatting. */

const OCTET = '(?:25[0-5]|2[0-4]\\d|1\\d\\d|[1-9]?\\d)'
const IPV4_RE = new RegExp(`^${OCTET}(?:\\.${OCTET}){3}$`)
const HEXTET_RE = /^[0-9a-fA-F]{1,4}$/

/** Dotted-quad IPv4 only: four decimal octets 0..255, no leading zeros. */
export function isIPv4(s: string): boolean {
  return IPV4_RE.test(s)
}

/** Parse an IPv6 address (with optional embedded IPv4 tail) into 8 16-bit words, or null. */
function parseIPv6(s: string): number[] | null {
  if (s.length < 2 || s.length > 45) return null
  let text = s
  const lastColon = s.lastIndexOf(':')
  const last = s.slice(lastColon + 1)
  if (last.includes('.')) {
    // an embedded IPv4 tail becomes two hex groups
    if (!isIPv4(last)) return null
    const o = last.split('.').map(Number) as [number, number, number, number]
    const hi = ((o[0] << 8) | o[1]).toString(16)
    const lo = ((o[2] << 8) | o[3]).toString(16)
    text = `${s.slice(0, lastColon + 1)}${hi}:${lo}`
  }
  const halves = text.split('::')
  if (halves.length > 2) return null
  const head = parseGroups(halves[0] ?? '')
  if (!head) return null
  if (halves.length === 1) return head.length === 8 ? head : null
  const rest = parseGroups(halves[1] ?? '')
  if (!rest) return null
  const zeros = 8 - head.length - rest.length
  if (zeros < 1) return null
  return [...head, ...new Array<number>(zeros).fill(0), ...rest]
}

function parseGroups(part: string): number[] | null {
  if (part === '') return []
  const out: number[] = []
  for (const g of part.split(':')) {
    if (!HEXTET_RE.test(g)) return null
    out.push(parseInt(g, 16))
  }
  return out
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
