/**
 * @module Owner names for signing, as labels parsed by `parseName` of `@edgedns/dns-wire`:
 * canonical wire form (RFC 4034 §6.2: uncompressed, lowercase), the RRSIG labels count, and the names a minimally covering
 * NSEC needs (an immediate successor and a close predecessor).
 */

import { lowerAscii } from '@edgedns/dns-facts'
import { nameText, type Labels } from '@edgedns/dns-wire'

class DnssecNameError extends Error {
  override readonly name = 'DnssecNameError'
}

function wireLength(labels: Labels): number {
  return labels.reduce((n, l) => n + l.length + 1, 1)
}

const lower = (b: number): number => (b >= 0x41 && b <= 0x5a ? b + 0x20 : b)

/** Canonical wire form: uncompressed, ASCII letters lowercased. */
export function canonicalName(labels: Labels): Uint8Array {
  const out = new Uint8Array(wireLength(labels))
  let at = 0
  for (const label of labels) {
    out[at++] = label.length
    for (const b of label) out[at++] = lower(b)
  }
  return out
}

/** Presentation text of labels, lowercase, without trailing dot. */
export function labelsText(labels: Labels): string {
  return lowerAscii(nameText(labels))
}

/** RRSIG labels field (RFC 4034 §3.1.3): labels of the owner, not counting a leading `*`. */
export function rrsigLabels(labels: Labels): number {
  const first = labels[0]
  return first && first.length === 1 && first[0] === 0x2a ? labels.length - 1 : labels.length
}

/**
 * The immediate successor of a name in canonical order (RFC 4471 §3.1.1): `\000.<name>`, or,
 * when that would be too long, the name's first label with its last octet raised.
 */
export function successor(labels: Labels): Labels {
  if (wireLength(labels) + 2 <= 255) return [Uint8Array.of(0), ...labels]
  return [raiseLast(labels[0]!), ...labels.slice(1)]
}

/**
 * The smallest name after every descendant of `labels`: the first label with `\000` appended (its
 * last octet raised when the label is already 63 octets long). Names between `labels` and it are
 * all below `labels`.
 */
export function afterSubtree(labels: Labels): Labels {
  const [first, ...rest] = labels
  if (!first) return [Uint8Array.of(0)]
  if (first.length < 63 && wireLength(labels) + 1 <= 255)
    return [Uint8Array.from([...first, 0]), ...rest]
  return [raiseLast(first), ...rest]
}

/**
 * A name just before `labels` in canonical order and still below its parent: the first label
 * with its last octet lowered (or removed when it is `\000`), then `\255` appended when room is
 * left (RFC 4471 §3.1.2, simplified: only the descendants of that one name lie in between).
 */
export function predecessor(labels: Labels): Labels {
  const [first, ...rest] = labels
  if (!first) throw new DnssecNameError('the root has no predecessor')
  const bytes = [...first].map(lower)
  const last = bytes.pop()!
  if (last === 0) return bytes.length > 0 ? [Uint8Array.from(bytes), ...rest] : rest
  let down = last - 1
  // Canonical order compares lowercase octets: a lowered octet must not land on an uppercase letter.
  if (down >= 0x41 && down <= 0x5a) down = 0x40
  bytes.push(down)
  if (bytes.length < 63 && wireLength(labels) + 1 <= 255) bytes.push(0xff)
  return [Uint8Array.from(bytes), ...rest]
}

function raiseLast(label: Uint8Array): Uint8Array {
  const bytes = [...label].map(lower)
  const i = bytes.findLastIndex((b) => b < 0xff)
  if (i < 0) throw new DnssecNameError('label has no successor of its length')
  let up = bytes[i]! + 1
  if (up >= 0x41 && up <= 0x5a) up = 0x5b
  bytes[i] = up
  return Uint8Array.from(bytes.slice(0, i + 1))
}

/** Canonical order (RFC 4034 §6.1): negative when a sorts before b. */
export function compareNames(a: Labels, b: Labels): number {
  for (let i = 1; i <= Math.min(a.length, b.length); i++) {
    const la = a[a.length - i]!
    const lb = b[b.length - i]!
    for (let j = 0; j < Math.min(la.length, lb.length); j++) {
      const d = lower(la[j]!) - lower(lb[j]!)
      if (d !== 0) return d
    }
    if (la.length !== lb.length) return la.length - lb.length
  }
  return a.length - b.length
}
