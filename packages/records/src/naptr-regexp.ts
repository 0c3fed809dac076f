/**
 * @module naptr-regexp: the NAPTR regexp field (RFC 3402 §3.2): empty, or
 * `<delim><ERE><delim><replacement><delim>[i]`. Zone-file readers check it (BIND refuses to load
 * a zone holding one it cannot read), so the API checks it the same way, on the octets: the
 * delimiter is a printable ASCII character other than a digit, `\` or `i`; the ERE is a POSIX
 * extended regular expression; `\1`..`\9` in the replacement name one of its groups; the only
 * flag is `i`. The ERE grammar here is a strict subset of POSIX (no empty groups or branches, no
 * back-references, no collating or equivalence classes), so what it accepts every reader does.
 */
import { utf8 } from './charstring.ts'
import { fail } from './errors.ts'

const BACKSLASH = 0x5c
const CLASSES = new Set([
  'alpha',
  'upper',
  'lower',
  'digit',
  'xdigit',
  'alnum',
  'space',
  'punct',
  'print',
  'graph',
  'cntrl',
  'blank',
])
const MAX_REPEAT = 255

const isDigit = (c: number | undefined): boolean => c !== undefined && c >= 0x30 && c <= 0x39
const ch = (c: string): number => c.charCodeAt(0)

/** Recursive-descent check of a POSIX ERE; returns its number of groups. */
class Ere {
  private i = 0
  groups = 0

  private readonly b: Uint8Array

  constructor(b: Uint8Array) {
    this.b = b
  }

  check(): number {
    this.alternation(0)
    if (this.i < this.b.length) this.bad(`unexpected "${String.fromCharCode(this.b[this.i]!)}"`)
    return this.groups
  }

  private bad(reason: string): never {
    return fail(`data.regex has an invalid regular expression: ${reason}`)
  }

  private alternation(depth: number): void {
    this.branch(depth)
    while (this.b[this.i] === ch('|')) {
      this.i++
      this.branch(depth)
    }
  }

  private branch(depth: number): void {
    let pieces = 0
    for (;;) {
      const c = this.b[this.i]
      if (c === undefined || c === ch('|') || (c === ch(')') && depth > 0)) break
      const anchor = c === ch('^') || c === ch('$')
      this.atom(depth)
      if (anchor) this.noQuantifier('an anchor')
      else this.quantifier()
      pieces++
    }
    if (pieces === 0) this.bad('an empty alternative or group')
  }

  private atom(depth: number): void {
    const c = this.b[this.i]!
    if (c === ch('(')) {
      this.i++
      this.groups++
      this.alternation(depth + 1)
      if (this.b[this.i] !== ch(')')) this.bad('a "(" is not closed')
      this.i++
    } else if (c === ch('[')) {
      this.bracket()
    } else if (c === BACKSLASH) {
      const next = this.b[this.i + 1]
      if (next === undefined) this.bad('it ends with a backslash')
      if (isDigit(next)) this.bad('back-references are not supported')
      this.i += 2
    } else if (c === ch(')')) {
      this.bad('a ")" has no "("')
    } else if (c === ch('*') || c === ch('+') || c === ch('?') || c === ch('{')) {
      this.bad(`"${String.fromCharCode(c)}" follows nothing`)
    } else {
      this.i++
    }
  }

  private quantifier(): void {
    const c = this.b[this.i]
    if (c === ch('*') || c === ch('+') || c === ch('?')) this.i++
    else if (c === ch('{')) this.bound()
    else return
    this.noQuantifier('a repetition')
  }

  private noQuantifier(what: string): void {
    const c = this.b[this.i]
    if (c === ch('*') || c === ch('+') || c === ch('?') || c === ch('{')) {
      this.bad(`a repetition follows ${what}`)
    }
  }

  private number(): number | undefined {
    const start = this.i
    while (isDigit(this.b[this.i])) this.i++
    if (this.i === start) return undefined
    const n = Number(String.fromCharCode(...this.b.subarray(start, this.i)))
    if (n > MAX_REPEAT) this.bad(`a repetition count is over ${MAX_REPEAT}`)
    return n
  }

  private bound(): void {
    this.i++
    const min = this.number()
    if (min === undefined) this.bad('"{" must start a repetition count such as {2} or {1,3}')
    let max: number | undefined = min
    if (this.b[this.i] === ch(',')) {
      this.i++
      max = this.number()
    }
    if (this.b[this.i] !== ch('}')) this.bad('a repetition count is not closed with "}"')
    this.i++
    if (max !== undefined && max < min)
      this.bad('a repetition count has its maximum below its minimum')
  }

  private bracket(): void {
    this.i++
    if (this.b[this.i] === ch('^')) this.i++
    let first = true
    let previous: number | undefined
    for (;;) {
      const c = this.b[this.i]
      if (c === undefined) this.bad('a "[" is not closed')
      if (c === ch(']') && !first) {
        this.i++
        return
      }
      first = false
      if (c === ch('[')) {
        const kind = this.b[this.i + 1]
        if (kind === ch(':')) {
          const end = this.indexOf(':]', this.i + 2)
          const name = String.fromCharCode(...this.b.subarray(this.i + 2, end))
          if (end < 0 || !CLASSES.has(name)) this.bad('an unknown character class')
          this.i = end + 2
          previous = undefined
          continue
        }
        if (kind === ch('=') || kind === ch('.')) this.bad('collating elements are not supported')
      }
      if (c === ch('-') && previous !== undefined && this.b[this.i + 1] !== ch(']')) {
        const to = this.b[this.i + 1]
        if (to === undefined) this.bad('a "[" is not closed')
        if (to === ch('[')) this.bad('a range ends in a class')
        if (to < previous) this.bad('a range is out of order')
        this.i += 2
        previous = undefined
        continue
      }
      previous = c
      this.i++
    }
  }

  private indexOf(text: string, from: number): number {
    for (let k = from; k + text.length <= this.b.length; k++) {
      let match = true
      for (let t = 0; t < text.length; t++) if (this.b[k + t] !== ch(text[t]!)) match = false
      if (match) return k
    }
    return -1
  }
}

/** Throws FieldError unless `value` is a NAPTR regexp every zone-file reader accepts. */
export function checkNaptrRegexp(value: string): void {
  const b = utf8(value)
  if (b.length === 0) return
  const form = 'data.regex must be empty or "<delim><regexp><delim><replacement><delim>[i]"'
  const delim = b[0]!
  if (delim < 0x21 || delim > 0x7e || isDigit(delim) || delim === BACKSLASH || delim === ch('i')) {
    fail(
      `${form}; the delimiter must be a printable ASCII character other than a digit, "\\" or "i"`
    )
  }
  const ere: number[] = []
  let part: 'ere' | 'replacement' | 'flags' = 'ere'
  let groups = 0
  for (let i = 1; i < b.length; i++) {
    const c = b[i]!
    if (c === 0) fail('data.regex must not contain a NUL octet')
    if (c === delim) {
      if (part === 'ere') {
        groups = new Ere(Uint8Array.from(ere)).check()
        part = 'replacement'
      } else if (part === 'replacement') part = 'flags'
      else fail(`${form}; it has more than three delimiters`)
      continue
    }
    if (part === 'flags') {
      if (c !== ch('i')) fail(`${form}; the only flag is "i"`)
      continue
    }
    if (part === 'ere') ere.push(c)
    if (c !== BACKSLASH) continue
    const next = b[++i]
    if (next === undefined || next === 0) fail(`${form}; it ends with a backslash`)
    if (part === 'ere') ere.push(next)
    else if (isDigit(next) && (next === ch('0') || next - ch('0') > groups)) {
      fail(
        `data.regex refers to group \\${String.fromCharCode(next)}, which the regexp does not have`
      )
    }
  }
  if (part !== 'flags') fail(`${form}; it needs three delimiters`)
}
