/**
 * @module Owner names for signing: presentation text ↔ labels, canonical wire form (RFC 4034
 * §6.2: uncompressed, lowercase), the RRSIG labels count, and the names a minimally covering
 * NSEC needs (an immediate successor and a close predecessor).
 */

export type Labels = Uint8Array[]

class DnssecNameError extends Error {
  override readonly name = 'DnssecNameError'
}

/** Labels of a presentation name (`\.` and `\DDD` escapes); '' and '.' are the root. */
export function parseLabels(text: string): Labels {
  if (text === '' || text === '.') return []
  const labels: Labels = []
  let current: number[] = []
  const close = (): void => {
    if (current.length === 0 || current.length > 63)
      throw new DnssecNameError(`bad label in ${text}`)
    labels.push(Uint8Array.from(current))
    current = []
  }
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i)
    if (c === 0x5c) {
      const digits = /^\d{3}/.exec(text.slice(i + 1, i + 4))
      if (digits) {
        current.push(Number(digits[0]) & 0xff)
        i += 3
      } else current.push(text.charCodeAt(++i))
    } else if (c === 0x2e) close()
    else current.push(c)
  }
  if (current.length > 0) close()
  if (wireLength(labels) > 255) throw new DnssecNameError(`name longer than 255 octets: ${text}`)
  return labels
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

const PLAIN = /[a-z0-9\-_*]/

/** Presentation text of labels, lowercase, without trailing dot. */
export function labelsText(labels: Labels): string {
  return labels
    .map((label) => {
      let out = ''
      for (const raw of label) {
        const b = lower(raw)
        const ch = String.fromCharCode(b)
        if (PLAIN.test(ch)) out += ch
        else if (b > 0x20 && b < 0x7f) out += `\\${ch}`
        else out += `\\${String(b).padStart(3, '0')}`
      }
      return out
    })
    .join('.')
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
