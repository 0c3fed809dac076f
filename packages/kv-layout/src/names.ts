/**
 * @module Name helpers shared by keys and lookups: escape-aware labels, suffixes. Names are
 * brought to their lookup form by `lookupName` of `@edgedns/dns-facts`.
 */
import { lookupName } from '@edgedns/dns-facts'

/** Labels of a presentation name without trailing dot; `\.` and `\DDD` stay inside a label. */
export function splitLabels(name: string): string[] {
  if (name === '') return []
  const labels: string[] = []
  let start = 0
  for (let i = 0; i < name.length; i++) {
    const c = name[i]
    if (c === '\\') i++
    else if (c === '.') {
      labels.push(name.slice(start, i))
      start = i + 1
    }
  }
  labels.push(name.slice(start))
  return labels
}

/** Parent of a name ('' for a single label). */
export function parentName(name: string): string {
  const labels = splitLabels(name)
  return labels.slice(1).join('.')
}

/** True when `name` equals `zone` or lies below it (both normalised). */
export function isInZone(name: string, zone: string): boolean {
  if (zone === '') return true
  if (name === zone) return true
  if (!name.endsWith('.' + zone)) return false
  // the dot before the zone must not be escaped
  let slashes = 0
  for (let i = name.length - zone.length - 2; i >= 0 && name[i] === '\\'; i--) slashes++
  return slashes % 2 === 0
}

/** Every suffix of a name that could be a zone, longest first: a.b.c → a.b.c, b.c, c. */
export function zoneCandidates(qname: string): string[] {
  const labels = splitLabels(lookupName(qname))
  const out: string[] = []
  for (let i = 0; i < labels.length; i++) out.push(labels.slice(i).join('.'))
  return out
}

/**
 * Ancestors of `name` strictly between it and `zone`, nearest first:
 * ancestorsBetween('a.b.c.example.com', 'example.com') → ['b.c.example.com', 'c.example.com'].
 * Empty when `name` is the zone, a child of it, or outside it.
 */
export function ancestorsBetween(name: string, zone: string): string[] {
  const n = lookupName(name)
  const z = lookupName(zone)
  if (n === z || !isInZone(n, z)) return []
  const labels = splitLabels(n)
  const depth = labels.length - splitLabels(z).length
  const out: string[] = []
  for (let i = 1; i < depth; i++) out.push(labels.slice(i).join('.'))
  return out
}
