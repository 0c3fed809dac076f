/**
 * @module Bucket values (layout v3): plain text a reader searches without parsing it whole.
 *
 * ```
 * #3\n
 * <relative name>\t<encoded node>\n      one line per node, names sorted
 * ```
 * A name is stored relative to its zone (`www` for `www.example.com`). Presentation names escape
 * tabs and newlines (`\009`, `\010`), and encoded nodes are JSON (which escapes them too), so a
 * line break always ends a line and a tab always ends a name. Finding a node is one `indexOf` of
 * `\n<relative name>\t` and one JSON parse of that line: an isolate can keep whole buckets as
 * strings (one byte per character) and decode only the names it is asked for.
 */
import { KvLayoutError } from './codec.ts'

export const BUCKET_HEADER = '#3\n'

/**
 * The value of an empty bucket: written, not deleted, so a missing key is never read as "no names".
 * The header alone, named for what it means to a writer (knip: a deliberate second name).
 * @alias
 */
export const EMPTY_BUCKET = BUCKET_HEADER

const byCodeUnit = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0)

/** Name relative to its zone; the zone's own name never lives in a bucket. */
export function relativeName(name: string, zone: string): string {
  return zone === '' ? name : name.slice(0, name.length - zone.length - 1)
}

/** Canonical bucket text from (full name, encoded node) pairs: equal state gives equal bytes. */
export function encodeBucketText(
  zone: string,
  encodedNodes: Iterable<readonly [string, string]>
): string {
  const lines: [string, string][] = []
  for (const [name, node] of encodedNodes) lines.push([relativeName(name, zone), node])
  lines.sort((a, b) => byCodeUnit(a[0], b[0]))
  let out = BUCKET_HEADER
  for (const [rel, node] of lines) out += `${rel}\t${node}\n`
  return out
}

/** Whether a KV value is a bucket of this layout (the reader refuses anything else). */
export function isBucketText(value: string): boolean {
  return value.startsWith(BUCKET_HEADER)
}

/** The encoded node of `name` in a bucket's text, or null when the bucket does not hold it. */
export function findInBucket(text: string, zone: string, name: string): string | null {
  if (!text.startsWith(BUCKET_HEADER)) throw new KvLayoutError('bucket: unsupported format')
  const needle = `\n${relativeName(name, zone)}\t`
  const at = text.indexOf(needle, BUCKET_HEADER.length - 1)
  if (at < 0) return null
  const start = at + needle.length
  const end = text.indexOf('\n', start)
  return text.slice(start, end < 0 ? text.length : end)
}

/** Every (full name, encoded node) of a bucket (the convergence check and tests). */
export function bucketEntries(text: string, zone: string): [string, string][] {
  if (!text.startsWith(BUCKET_HEADER)) throw new KvLayoutError('bucket: unsupported format')
  const out: [string, string][] = []
  for (const line of text.slice(BUCKET_HEADER.length).split('\n')) {
    if (line === '') continue
    const tab = line.indexOf('\t')
    if (tab < 0) throw new KvLayoutError('bucket: line without a tab')
    const rel = line.slice(0, tab)
    out.push([zone === '' ? rel : `${rel}.${zone}`, line.slice(tab + 1)])
  }
  return out
}

/**
 * Where each line of a bucket starts, for `findInIndexedBucket`; null when the lines are not in
 * the canonical (sorted, unique) order, so a reader falls back to `findInBucket` rather than miss
 * a name. Built once per bucket an isolate keeps: 4 bytes a name.
 */
export function bucketLineIndex(text: string): Int32Array | null {
  if (!text.startsWith(BUCKET_HEADER)) throw new KvLayoutError('bucket: unsupported format')
  const starts: number[] = []
  for (let at = BUCKET_HEADER.length; at < text.length;) {
    const end = text.indexOf('\n', at)
    if (starts.length > 0 && compareLineName(text, starts[starts.length - 1]!, text, at) >= 0)
      return null
    starts.push(at)
    if (end < 0) break
    at = end + 1
  }
  return Int32Array.from(starts)
}

/** Code unit of a bucket name at `i`, -1 where the name ends (tab, newline or end of text). */
function nameCharAt(text: string, i: number): number {
  if (i >= text.length) return -1
  const c = text.charCodeAt(i)
  return c === 9 || c === 10 ? -1 : c
}

/** Order of the names starting at `a` in `at` and at `b` in `bt` (code units, as the builder sorts). */
function compareLineName(at: string, a: number, bt: string, b: number): number {
  for (let i = 0; ; i++) {
    const x = nameCharAt(at, a + i)
    const y = nameCharAt(bt, b + i)
    if (x !== y) return x - y
    if (x < 0) return 0
  }
}

/** Order of a relative name against the bucket line starting at `start`. */
function compareToLine(rel: string, text: string, start: number): number {
  for (let i = 0; ; i++) {
    const x = i < rel.length ? rel.charCodeAt(i) : -1
    const y = nameCharAt(text, start + i)
    if (x !== y) return x - y
    if (x < 0) return 0
  }
}

/** `findInBucket` by binary search over the bucket's line index (no scan of the text). */
export function findInIndexedBucket(
  text: string,
  lines: Int32Array,
  zone: string,
  name: string
): string | null {
  const rel = relativeName(name, zone)
  let lo = 0
  let hi = lines.length - 1
  while (lo <= hi) {
    const mid = (lo + hi) >>> 1
    const order = compareToLine(rel, text, lines[mid]!)
    if (order === 0) {
      const start = lines[mid]! + rel.length + 1
      const end = text.indexOf('\n', start)
      return text.slice(start, end < 0 ? text.length : end)
    }
    if (order < 0) hi = mid - 1
    else lo = mid + 1
  }
  return null
}
