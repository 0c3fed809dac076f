/**
 * @module lexer — splits master-file text into logical lines of tokens (RFC 1035 §5.1):
 * parentheses (nestable, as in BIND) join physical lines, `;` starts a comment, quoted strings
 * and backslash escapes are kept verbatim, CRLF and tabs are whitespace.
 */
import { ZoneFileError, type Position } from './errors.ts'

export interface Token {
  /** Token text exactly as written (quoted strings keep their quotes and escapes). */
  text: string
  line: number
  column: number
  quoted: boolean
}

export interface LogicalLine {
  tokens: Token[]
  /** The physical line began with a space or tab: the owner is the previous one. */
  blankOwner: boolean
  /** Trimmed comment of the physical line on which the logical line ends, if any. */
  comment?: string
}

const LF = 10
const CR = 13
const SPACE = 32
const TAB = 9
const QUOTE = 34
const SEMI = 59
const OPEN = 40
const CLOSE = 41
const BACKSLASH = 92

function isDigit(c: number): boolean {
  return c >= 48 && c <= 57
}

function ends(c: number): boolean {
  return (
    c === SPACE ||
    c === TAB ||
    c === LF ||
    c === CR ||
    c === SEMI ||
    c === OPEN ||
    c === CLOSE ||
    c === QUOTE
  )
}

/** Bounds on one logical line, checked while it is read, so a huge line costs only the bound. */
export interface LineLimits {
  /** Most characters from a logical line's first token to its end, comments included. */
  maxChars: number
  /** Most tokens in one logical line. */
  maxTokens: number
}

/**
 * Generous for any record: the longest a record can be on the wire (4,096 octets, written with
 * `\DDD` escapes) plus a comment carrying the most tags a record may have.
 */
export const DEFAULT_LINE_LIMITS: LineLimits = { maxChars: 262_144, maxTokens: 10_000 }

/** Position of the first character after a token (for "missing …" errors). */
export function after(token: Token): Position {
  return { line: token.line, column: token.column + token.text.length }
}

/**
 * Yields the logical lines of `text` that hold at least one token. A logical line longer than
 * `limits.maxChars` or with more than `limits.maxTokens` tokens throws where it starts, as soon as
 * the bound is crossed.
 */
export function* logicalLines(
  text: string,
  limits: LineLimits = DEFAULT_LINE_LIMITS
): Generator<LogicalLine> {
  const len = text.length
  let i = text.charCodeAt(0) === 0xfeff ? 1 : 0
  let line = 1
  let lineStart = i
  const open: Position[] = []
  let tokens: Token[] = []
  let blankOwner = false
  let comment: string | undefined
  let atLineStart = true

  const pos = (at: number): Position => ({ line, column: at - lineStart + 1 })
  // Where the current logical line began (its first token, or an opening parenthesis), and its
  // position for the error; -1 between logical lines.
  let begin = -1
  let beginPos: Position = { line: 1, column: 1 }
  // The last index the current logical line may reach.
  let limitAt = Infinity
  const start = (at: number): void => {
    if (begin >= 0) return
    begin = at
    beginPos = pos(at)
    limitAt = at + limits.maxChars
  }
  const tooLong = (): never => {
    throw new ZoneFileError(
      `a record is longer than ${limits.maxChars} characters (it starts here)`,
      beginPos
    )
  }
  const push = (token: Token): void => {
    if (tokens.length >= limits.maxTokens) {
      throw new ZoneFileError(
        `a record has more than ${limits.maxTokens} tokens (it starts here)`,
        beginPos
      )
    }
    tokens.push(token)
  }

  // Validates the escape at `at` (a backslash); returns its length in characters.
  const escape = (at: number): number => {
    const next = at + 1 < len ? text.charCodeAt(at + 1) : -1
    if (next === -1 || next === LF || next === CR) {
      throw new ZoneFileError('bad escape sequence', pos(at))
    }
    if (!isDigit(next)) return 2
    const ddd = text.slice(at + 1, at + 4)
    if (!/^\d{3}$/.test(ddd) || Number(ddd) > 255) {
      throw new ZoneFileError('bad escape sequence', pos(at))
    }
    return 4
  }

  // Index of the quote closing the quoted string that opens at `at`.
  const quotedEnd = (at: number): number => {
    let j = at + 1
    for (;;) {
      if (j > limitAt) tooLong()
      const q = j < len ? text.charCodeAt(j) : -1
      if (q === -1 || q === LF) throw new ZoneFileError('unterminated quoted string', pos(at))
      if (q === QUOTE) return j
      j += q === BACKSLASH ? escape(j) : 1
    }
  }

  while (i < len) {
    const c = text.charCodeAt(i)
    if (atLineStart) {
      atLineStart = false
      if (open.length === 0 && tokens.length === 0) blankOwner = c === SPACE || c === TAB
    }
    if (c === LF) {
      if (open.length === 0) {
        if (tokens.length > 0) {
          yield comment === undefined ? { tokens, blankOwner } : { tokens, blankOwner, comment }
          tokens = []
        }
        begin = -1
        limitAt = Infinity
      }
      comment = undefined
      line++
      i++
      lineStart = i
      atLineStart = true
    } else if (c === SPACE || c === TAB || c === CR) {
      i++
    } else if (c === SEMI) {
      let end = text.indexOf('\n', i)
      if (end === -1) end = len
      // A comment counts towards its logical line; one on a line of its own is skipped unread.
      if (begin >= 0) {
        if (end > limitAt) tooLong()
        const trimmed = text.slice(i + 1, end).trim()
        comment = trimmed === '' ? undefined : trimmed
      }
      i = end
    } else if (c === OPEN) {
      start(i)
      open.push(pos(i))
      i++
    } else if (c === CLOSE) {
      if (!open.pop()) throw new ZoneFileError('unbalanced parenthesis', pos(i))
      i++
    } else if (c === QUOTE) {
      start(i)
      const j = quotedEnd(i)
      push({ text: text.slice(i, j + 1), line, column: i - lineStart + 1, quoted: true })
      i = j + 1
    } else {
      start(i)
      let j = i
      while (j < len) {
        if (j > limitAt) tooLong()
        const b = text.charCodeAt(j)
        // A quote ends the token, as in BIND: `foo="a b"` is `foo=` and `"a b"` (the parser joins
        // them back for an SVCB/HTTPS SvcParam, fields.ts joinRdata).
        if (ends(b)) break
        j += b === BACKSLASH ? escape(j) : 1
      }
      push({ text: text.slice(i, j), line, column: i - lineStart + 1, quoted: false })
      i = j
    }
  }
  const unclosed = open.pop()
  if (unclosed) throw new ZoneFileError('unbalanced parenthesis', unclosed)
  if (tokens.length > 0) {
    yield comment === undefined ? { tokens, blankOwner } : { tokens, blankOwner, comment }
  }
}
