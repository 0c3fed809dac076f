/**
 * @module canonical — DNS canonical name order (RFC 4034 §6.1) and a conventional type
 * order, used to sort serialized records: apex first, then names by their labels from the right.
 */
import { TYPE_CODES, isTypeName } from '@edgedns/dns-facts'

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

/** Numeric type code for ordering (TYPEnnn honoured); unknown mnemonics sort last. */
export function typeOrder(type: string): number {
  const upper = type.toUpperCase()
  const generic = /^TYPE(\d+)$/.exec(upper)
  if (generic) return Number(generic[1])
  return isTypeName(upper) ? TYPE_CODES[upper] : 65536
}
