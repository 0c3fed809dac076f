/**
 * @module generate — BIND $GENERATE pieces: the `start-stop[/step]` range and the templates with
 * `$`, `$$`, `\$` and `${offset[,width[,base]]}` (base d, o, x, X, n, N) substitutions.
 */
import { ZoneFileError } from './errors.ts'
import type { Token } from './lexer.ts'

export interface Range {
  start: number
  stop: number
  step: number
  count: number
}

interface Modifier {
  offset: number
  width: number
  base: string
}

/** A compiled template: literal text and modifiers, in order. */
export type Template = (string | Modifier)[]

const MAX_VALUE = 4294967295
const MAX_WIDTH = 255

/** Parses `start-stop[/step]`. */
export function parseRange(token: Token): Range {
  const m = /^(\d+)-(\d+)(?:\/(\d+))?$/.exec(token.text)
  const start = Number(m?.[1])
  const stop = Number(m?.[2])
  const step = m?.[3] === undefined ? 1 : Number(m[3])
  if (!m || token.quoted || start > stop || stop > MAX_VALUE || step < 1 || step > MAX_VALUE) {
    throw new ZoneFileError(`bad $GENERATE range "${token.text}"`, token)
  }
  return { start, stop, step, count: Math.floor((stop - start) / step) + 1 }
}

/** Compiles a template token; checks that no substituted value can be negative. */
export function compileTemplate(token: Token, range: Range): Template {
  const { text } = token
  const parts: Template = []
  let literal = ''
  let k = 0
  while (k < text.length) {
    const c = text[k]!
    const next = text[k + 1]
    if (c === '\\' && next !== undefined) {
      literal += next === '$' ? '$' : c + next
      k += 2
    } else if (c === '$' && next === '$') {
      literal += '$'
      k += 2
    } else if (c === '$') {
      const at = { line: token.line, column: token.column + k }
      let modifier: Modifier = { offset: 0, width: 0, base: 'd' }
      k++
      if (next === '{') {
        const close = text.indexOf('}', k)
        const m = /^([+-]?\d+)(?:,(\d+)(?:,([doxXnN]))?)?$/.exec(text.slice(k + 1, close))
        if (close === -1 || !m || Number(m[2] ?? 0) > MAX_WIDTH) {
          throw new ZoneFileError('bad $GENERATE modifier', at)
        }
        modifier = { offset: Number(m[1]), width: Number(m[2] ?? 0), base: m[3] ?? 'd' }
        k = close + 1
      }
      const low = range.start + modifier.offset
      const high = range.stop + modifier.offset
      if (low < 0 || high > MAX_VALUE) {
        throw new ZoneFileError('$GENERATE value out of range', at)
      }
      if (literal !== '') parts.push(literal)
      literal = ''
      parts.push(modifier)
    } else {
      literal += c
      k++
    }
  }
  if (literal !== '') parts.push(literal)
  return parts
}

/** BIND's nibble format: reversed hex digits joined by dots; `width` counts the dots too. */
function nibbles(value: number, width: number, upper: boolean): string {
  let out = ''
  let rest = value
  let left = width
  do {
    const digit = (rest % 16).toString(16)
    out += upper ? digit.toUpperCase() : digit
    rest = Math.floor(rest / 16)
    if (left > 0) left--
    if (left > 0 || rest !== 0) {
      out += '.'
      if (left > 0) left--
    }
  } while (rest !== 0 || left > 0)
  return out
}

function format(value: number, { width, base }: Modifier): string {
  switch (base) {
    case 'n':
    case 'N':
      return nibbles(value, width, base === 'N')
    case 'o':
      return value.toString(8).padStart(width, '0')
    case 'x':
      return value.toString(16).padStart(width, '0')
    case 'X':
      return value.toString(16).toUpperCase().padStart(width, '0')
    default:
      return value.toString(10).padStart(width, '0')
  }
}

/** Substitutes `value` into a compiled template. */
export function expand(template: Template, value: number): string {
  let out = ''
  for (const part of template) {
    out += typeof part === 'string' ? part : format(value + part.offset, part)
  }
  return out
}
