/**
 * @module Domain names: presentation text ↔ labels, limits (63/255), wire writing with compression.
 */
import type { ByteWriter } from './writer.ts'

export type Labels = Uint8Array[]

export class NameError extends Error {}

const MAX_LABEL = 63
const MAX_NAME = 255

/** Labels of a presentation name (`\.` and `\DDD` escapes); '' and '.' are the root. */
export function parseName(text: string): Labels {
  if (text === '' || text === '.') return []
  if (text.indexOf('\\') < 0) return parsePlainName(text)
  const labels: Labels = []
  let current: number[] = []
  let wire = 1
  const close = (): void => {
    if (current.length === 0) throw new NameError(`empty label in ${text}`)
    if (current.length > MAX_LABEL) throw new NameError(`label longer than 63 octets in ${text}`)
    labels.push(Uint8Array.from(current))
    wire += current.length + 1
    current = []
  }
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i)
    if (c > 0x7e || c < 0x21) throw new NameError(`invalid character in name ${text}`)
    if (c === 0x5c) {
      const digits = /^\d{3}/.exec(text.slice(i + 1, i + 4))
      if (digits) {
        const v = Number(digits[0])
        if (v > 255) throw new NameError(`bad escape in ${text}`)
        current.push(v)
        i += 3
      } else {
        if (i + 1 >= text.length) throw new NameError(`dangling escape in ${text}`)
        current.push(text.charCodeAt(++i))
      }
    } else if (c === 0x2e) {
      close()
    } else current.push(c)
  }
  if (current.length > 0) close()
  if (wire > MAX_NAME) throw new NameError(`name longer than 255 octets: ${text}`)
  return labels
}

/** Octets written as themselves in presentation text: A-Z a-z 0-9 - _ *. */
/** `parseName` of a name without escapes: labels cut at dots, no per-octet arrays. */
function parsePlainName(text: string): Labels {
  const labels: Labels = []
  let wire = 1
  let start = 0
  for (let i = 0; i <= text.length; i++) {
    const c = i < text.length ? text.charCodeAt(i) : 0x2e
    if (c === 0x2e) {
      const length = i - start
      if (length === 0) {
        if (i === text.length) break
        throw new NameError(`empty label in ${text}`)
      }
      if (length > MAX_LABEL) throw new NameError(`label longer than 63 octets in ${text}`)
      const label = new Uint8Array(length)
      for (let k = 0; k < length; k++) label[k] = text.charCodeAt(start + k)
      labels.push(label)
      wire += length + 1
      start = i + 1
    } else if (c > 0x7e || c < 0x21) throw new NameError(`invalid character in name ${text}`)
  }
  if (wire > MAX_NAME) throw new NameError(`name longer than 255 octets: ${text}`)
  return labels
}

const PLAIN = new Uint8Array(256)
for (const c of 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_*')
  PLAIN[c.charCodeAt(0)] = 1

/** Presentation text of one label, escaping special and non-printable octets. */
export function labelText(label: Uint8Array): string {
  let out = ''
  for (const b of label) {
    const ch = String.fromCharCode(b)
    if (PLAIN[b] === 1) out += ch
    else if (b > 0x20 && b < 0x7f) out += `\\${ch}`
    else out += `\\${String(b).padStart(3, '0')}`
  }
  return out
}

/** Presentation text without trailing dot ('' for the root). */
export function nameText(labels: Labels): string {
  return labels.map(labelText).join('.')
}

/** Remembers where name suffixes were written; entries after a mark can be undone. */
export class Compressor {
  readonly #offsets = new Map<string, number>()
  readonly #journal: string[] = []

  mark(): number {
    return this.#journal.length
  }

  rollback(mark: number): void {
    while (this.#journal.length > mark) this.#offsets.delete(this.#journal.pop() as string)
  }

  get(key: string): number | undefined {
    return this.#offsets.get(key)
  }

  add(key: string, offset: number): void {
    if (offset > 0x3fff || this.#offsets.has(key)) return
    this.#offsets.set(key, offset)
    this.#journal.push(key)
  }
}

/**
 * Writes a name; with a compressor, points to an earlier copy of any suffix (case-insensitive).
 * A suffix's compression key is its presentation text in lower case, without the final dot.
 */
export function writeName(w: ByteWriter, labels: Labels, comp?: Compressor): void {
  const keys: string[] = []
  if (comp) {
    let key = ''
    for (let i = labels.length - 1; i >= 0; i--) {
      const text = labelText(labels[i] as Uint8Array).toLowerCase()
      key = key === '' ? text : `${text}.${key}`
      keys[i] = key
    }
  }
  for (let i = 0; i < labels.length; i++) {
    const label = labels[i] as Uint8Array
    if (comp) {
      const key = keys[i] as string
      const at = comp.get(key)
      if (at !== undefined) {
        w.u16(0xc000 | at)
        return
      }
      comp.add(key, w.length)
    }
    w.u8(label.length)
    w.bytes(label)
  }
  w.u8(0)
}

/**
 * Writes the name `text` (presentation form, final dot optional) exactly as
 * `writeName(w, parseName(text), comp)` does, and throws as it does. A name of letters, digits and
 * `-`, `_`, `*` only (almost every name) is written straight from the text: no label arrays, and
 * its compression keys are slices of it.
 */
export function writeNameText(w: ByteWriter, text: string, comp?: Compressor): void {
  let end = text.length
  if (end > 0 && text.charCodeAt(end - 1) === 0x2e) end--
  if (end === 0 || end + 2 > MAX_NAME) return writeName(w, parseName(text), comp)
  let labelStart = 0
  let upper = false
  for (let i = 0; i <= end; i++) {
    const c = i < end ? text.charCodeAt(i) : 0x2e
    if (c === 0x2e) {
      const length = i - labelStart
      if (length === 0 || length > MAX_LABEL) return writeName(w, parseName(text), comp)
      labelStart = i + 1
    } else if (PLAIN[c] !== 1) return writeName(w, parseName(text), comp)
    else if (c >= 0x41 && c <= 0x5a) upper = true
  }
  for (let start = 0; start < end;) {
    if (comp) {
      const suffix = text.slice(start, end)
      const key = upper ? suffix.toLowerCase() : suffix
      const at = comp.get(key)
      if (at !== undefined) {
        w.u16(0xc000 | at)
        return
      }
      comp.add(key, w.length)
    }
    let dot = text.indexOf('.', start)
    if (dot < 0 || dot > end) dot = end
    w.u8(dot - start)
    w.ascii(text, start, dot)
    start = dot + 1
  }
  w.u8(0)
}

/**
 * Writes `text` when it is a name below `parent` (a compression key: lower case, no final dot)
 * whose copy is at `parentOffset`: the labels before it, then a pointer to it. False, with nothing
 * written, when it is not, or when its labels need `writeNameText` (a final dot, escapes, other
 * characters, an empty or long label, a name over 255 octets). The name itself is not remembered
 * for compression, so a writer of many names below one parent skips a lookup per name.
 */
export function writeNameBelow(
  w: ByteWriter,
  text: string,
  parent: string,
  parentOffset: number
): boolean {
  const end = text.length - parent.length - 1
  if (end <= 0 || text.charCodeAt(end) !== 0x2e || !text.endsWith(parent)) return false
  return labelsThenPointer(w, text, end, parent.length, parentOffset)
}

/**
 * Writes the name whose labels below a parent of `parentLength` characters (its compression key,
 * copied at `parentOffset`) are `labels` (presentation text, no final dot): those labels, then a
 * pointer to the parent, as `writeNameBelow` writes the whole name, with neither the whole name's
 * text nor a check that it ends in the parent. False, with nothing written, when the labels need
 * `writeNameText` (escapes, other characters, an empty or long label, a name over 255 octets).
 */
export function writeLabelsBelow(
  w: ByteWriter,
  labels: string,
  parentLength: number,
  parentOffset: number
): boolean {
  return labelsThenPointer(w, labels, labels.length, parentLength, parentOffset)
}

/** The first `end` characters of `text` as labels, then a pointer to `parentOffset` (see above). */
function labelsThenPointer(
  w: ByteWriter,
  text: string,
  end: number,
  parentLength: number,
  parentOffset: number
): boolean {
  // The whole name's text is `end` characters, a dot and the parent's; its wire form two more.
  if (end <= 0 || end + 1 + parentLength + 2 > MAX_NAME) return false
  if (!w.labels(text, end, PLAIN, MAX_LABEL)) return false
  w.u16(0xc000 | parentOffset)
  return true
}
