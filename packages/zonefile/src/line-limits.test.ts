import { describe, expect, it } from 'vitest'
import { logicalLines } from './lexer.ts'
import { parseZoneFile, ZoneFileError } from './index.ts'

function failure(text: string, opts: { maxLineChars?: number; maxLineTokens?: number } = {}) {
  try {
    parseZoneFile(text, { origin: 'example.com', defaultTtl: 300, ...opts })
  } catch (err) {
    if (err instanceof ZoneFileError) return err
    throw err
  }
  throw new Error('expected a ZoneFileError')
}

/** Lines of `text` the lexer yields before it throws, and what it threw. */
function lexUntilError(text: string, maxChars: number, maxTokens: number) {
  let lines = 0
  try {
    for (const _ of logicalLines(text, { maxChars, maxTokens })) lines++
  } catch (err) {
    return { lines, err: err as ZoneFileError }
  }
  return { lines, err: undefined }
}

describe('one logical line is bounded while it is read', () => {
  it('stops a line of millions of tokens at the token bound, where the record starts', () => {
    // 4 MiB of one-character tokens on one line after two good records
    const text = `a A 192.0.2.1\nb A 192.0.2.2\nc TXT ${'x '.repeat(2 * 1024 * 1024)}\n`
    const err = failure(text)
    expect(err.message).toBe(
      'line 3, column 1: a record has more than 10000 tokens (it starts here)'
    )
  })

  it('stops a single huge token at the character bound instead of scanning it to its end', () => {
    // an unterminated quoted string of 4 MiB: without the bound this is "unterminated quoted string"
    const text = `a A 192.0.2.1\n  TXT "${'y'.repeat(4 * 1024 * 1024)}\n`
    expect(failure(text).message).toBe(
      'line 2, column 3: a record is longer than 262144 characters (it starts here)'
    )
    expect(failure(`a TXT ${'z'.repeat(300_000)}`).reason).toMatch(/longer than 262144/)
  })

  it('counts parentheses and comments across physical lines towards the bound', () => {
    const text = `a TXT ( "x" ; ${'c'.repeat(200)}\n ; ${'d'.repeat(200)}\n "y" )\nb A 192.0.2.1\n`
    expect(failure(text, { maxLineChars: 300 }).message).toBe(
      'line 1, column 1: a record is longer than 300 characters (it starts here)'
    )
    expect(parseZoneFile(text, { origin: 'example.com', defaultTtl: 300 })).toHaveLength(2)
    // a comment on a line of its own belongs to no record, and is skipped whatever its length
    const lone = `; ${'c'.repeat(300)}\na A 192.0.2.1 ; short\n${'x'.repeat(300)} A 192.0.2.2\n`
    expect(failure(lone, { maxLineChars: 100 }).message).toBe(
      'line 3, column 1: a record is longer than 100 characters (it starts here)'
    )
  })

  it('reads no further than the bound: the lexer throws after the bound, not at the end', () => {
    const { lines, err } = lexUntilError(`a A 192.0.2.1\nb ${'t '.repeat(1000)}`, 1_000_000, 50)
    expect(lines).toBe(1)
    expect(err?.reason).toBe('a record has more than 50 tokens (it starts here)')
    expect(err?.line).toBe(2)
  })
})
