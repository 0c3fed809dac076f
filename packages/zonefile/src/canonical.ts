/**
 * @module canonical — DNS canonical name order (RFC 4034 §6.1) and a conventional type
 * order, used to sort serialized records: apex first, then names by their labels from the right.
 */

/** Splits a presentation name into labels (escapes decoded, ASCII lowercased), rightmost first. */
export function canonicalLabels(name: string): string[] {
  if (name === '' || name === '.') return []
  const labels: string[] = []
  let label = ''
  for (let k = 0; k < name.length; k++) {
    const c = name[k]!
    if (c === '\\') {
      const ddd = name.slice(k + 1, k + 4)
      if (/^\d{3}$/.test(ddd)) {
        label += String.fromCharCode(Number(ddd))
        k += 3
      } else {
        label += name[++k] ?? ''
      }
    } else if (c === '.') {
      labels.push(label)
      label = ''
    } else {
      label += c
    }
  }
  if (label !== '') labels.push(label)
  return labels.map((l) => l.replace(/[A-Z]/g, (u) => u.toLowerCase())).reverse()
}

/** Compares two label lists (from canonicalLabels) in canonical order. */
export function compareLabels(a: string[], b: string[]): number {
  const n = Math.min(a.length, b.length)
  for (let k = 0; k < n; k++) {
    const x = a[k]!
    const y = b[k]!
    if (x !== y) return x < y ? -1 : 1
  }
  return a.length - b.length
}

const TYPE_CODES: Record<string, number> = {
  A: 1, NS: 2, CNAME: 5, SOA: 6, PTR: 12, HINFO: 13, MX: 15, TXT: 16, RP: 17, AFSDB: 18,
  AAAA: 28, LOC: 29, SRV: 33, NAPTR: 35, KX: 36, CERT: 37, DNAME: 39, APL: 42, DS: 43,
  SSHFP: 44, IPSECKEY: 45, RRSIG: 46, NSEC: 47, DNSKEY: 48, DHCID: 49, NSEC3: 50,
  NSEC3PARAM: 51, TLSA: 52, SMIMEA: 53, HIP: 55, CDS: 59, CDNSKEY: 60, OPENPGPKEY: 61,
  CSYNC: 62, ZONEMD: 63, SVCB: 64, HTTPS: 65, SPF: 99, URI: 256, CAA: 257,
}

/** Numeric type code for ordering (TYPEnnn honoured); unknown mnemonics sort last. */
export function typeOrder(type: string): number {
  const upper = type.toUpperCase()
  const generic = /^TYPE(\d+)$/.exec(upper)
  return generic ? Number(generic[1]) : (TYPE_CODES[upper] ?? 65536)
}
