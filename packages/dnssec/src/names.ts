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
 * A name before `labels` in canonical order, below its parent, that no zone holds (it has a `\255`
 * octet: hosted names are letters, digits, `-`, `_` and `*`), so that an NSEC at it covering
 * `labels` denies nothing that exists: the first label with its last octet lowered and `\255`
 * appended, or a `\255` label put below that name when the label has no room; for a label ending
 * in `\000`, a `\255` label below the name without it. Null when the name that comes right before
 * `labels` may exist: for `\000.<parent>`, which only `<parent>` precedes, and when no such name
 * fits in 255 octets (RFC 4471 §3.1.2, simplified: only descendants of one name lie in between).
 */
export function predecessor(labels: Labels): Labels | null {
  const [first, ...rest] = labels
  if (!first) throw new DnssecNameError('the root has no predecessor')
  const bytes = [...first].map(lower)
  const last = bytes.pop()!
  if (last === 0 && bytes.length === 0) return null
  if (last !== 0) {
    let down = last - 1
    // Canonical order compares lowercase octets: a lowered octet must not land on an uppercase letter.
    if (down >= 0x41 && down <= 0x5a) down = 0x40
    bytes.push(down)
    if (bytes.length < 63 && wireLength(labels) + 1 <= 255)
      return [Uint8Array.from([...bytes, 0xff]), ...rest]
  }
  const before = [Uint8Array.from(bytes), ...rest]
  return wireLength(before) + 2 <= 255 ? [Uint8Array.of(0xff), ...before] : null
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
