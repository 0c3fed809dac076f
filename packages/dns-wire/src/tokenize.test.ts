/**
 * Splitting rdata text into tokens: text of plain printable characters takes a shorter path than
 * text with quotes, escapes or other white space; both must split alike.
 */
import { describe, expect, it } from 'vitest'
import { tokenize } from './rdata/text.ts'

describe('tokenize', () => {
  it('splits plain text at spaces, and text with quotes, escapes or tabs as before', () => {
    expect(tokenize('192.0.2.1')).toEqual(['192.0.2.1'])
    expect(tokenize('  10   mail.example.com.  ')).toEqual(['10', 'mail.example.com.'])
    expect(tokenize('')).toEqual([])
    expect(tokenize('0 issue "letsencrypt.org"')).toEqual(['0', 'issue', '"letsencrypt.org"'])
    expect(tokenize('"a b" c\\ d')).toEqual(['"a b"', 'c\\ d'])
    expect(tokenize('1\t2\n3')).toEqual(['1', '2', '3'])
    expect(tokenize('a\u00a0b c')).toEqual(['a', 'b', 'c'])
    expect(() => tokenize('"open')).toThrow(/unterminated/)
  })
})
