import { describe, expect, it } from 'vitest'
import { parseZoneFile, ZoneFileError } from './index.ts'

/** Parses and returns the thrown ZoneFileError as [line, column, reason]. */
function failure(text: string, maxRecords?: number): [number, number, string] {
  try {
    parseZoneFile(text, { origin: 'example.com', defaultTtl: 300, maxRecords })
  } catch (err) {
    if (!(err instanceof ZoneFileError)) throw err
    expect(err.message).toBe(`line ${err.line}, column ${err.column}: ${err.reason}`)
    return [err.line, err.column, err.reason]
  }
  throw new Error('expected a ZoneFileError')
}

describe('parseZoneFile errors carry the line and column of the offending token', () => {
  it('refuses $INCLUDE with the Cloudflare message', () => {
    expect(failure('a A 1.1.1.1\n  \n$INCLUDE other.zone\n')).toEqual([
      3,
      1,
      '$INCLUDE directive not allowed',
    ])
    expect(failure('$include x')[2]).toBe('$INCLUDE directive not allowed')
  })

  it('rejects unknown directives', () => {
    expect(failure('a A 1.1.1.1\n$FOO bar\n')).toEqual([2, 1, 'unknown directive $FOO'])
  })

  it('rejects a closing parenthesis without an opening one', () => {
    expect(failure('a A 1.1.1.1\nb TXT "x" )\n')).toEqual([2, 11, 'unbalanced parenthesis'])
  })

  it('reports an unclosed parenthesis at the opening one', () => {
    expect(failure('@ SOA ns host (\n 1 2 3\n 4 5\n')).toEqual([1, 15, 'unbalanced parenthesis'])
  })

  it('reports the innermost unclosed parenthesis when nested ones do not balance', () => {
    expect(failure('a TXT ( "x"\n  ( "y" ) ( \n')).toEqual([2, 11, 'unbalanced parenthesis'])
    expect(failure('a TXT ( "x" ( "y" )\n')).toEqual([1, 7, 'unbalanced parenthesis'])
  })

  it('reports an unterminated quoted string at its opening quote', () => {
    expect(failure('a TXT "ok"\nb TXT "open \\" still\n')).toEqual([
      2,
      7,
      'unterminated quoted string',
    ])
  })

  it('rejects bad escapes', () => {
    expect(failure('a TXT "x\\999"\n')).toEqual([1, 9, 'bad escape sequence'])
    expect(failure('a TXT x\\1\n')).toEqual([1, 8, 'bad escape sequence'])
    expect(failure('a TXT x\\')).toEqual([1, 8, 'bad escape sequence'])
  })

  it('rejects classes other than IN', () => {
    expect(failure('a 60 CH TXT "x"\n')).toEqual([1, 6, 'unsupported class CH'])
    expect(failure('a\tHS A 1.1.1.1\n')).toEqual([1, 3, 'unsupported class HS'])
  })

  it('rejects bad TTLs in records and $TTL', () => {
    expect(failure('a 1x A 1.1.1.1\n')).toEqual([1, 3, 'bad TTL "1x"'])
    expect(failure('a 2147483648 A 1.1.1.1\n')).toEqual([1, 3, 'bad TTL "2147483648"'])
    expect(failure('$TTL 1h30\n')).toEqual([1, 6, 'bad TTL "1h30"'])
    expect(failure('$TTL\n')).toEqual([1, 5, '$TTL needs a value'])
    expect(failure('$TTL 60 70\n')).toEqual([1, 9, 'unexpected "70"'])
  })

  it('reports a missing type or rdata just after the last token', () => {
    expect(failure('a 60 IN\n')).toEqual([1, 8, 'missing record type'])
    expect(failure('a 60 IN A ; comment\n')).toEqual([1, 10, 'missing rdata'])
  })

  it('rejects a token that cannot be a type', () => {
    expect(failure('a 60 IN 1.2.3.4\n')).toEqual([1, 9, 'bad record type "1.2.3.4"'])
    expect(failure('a "TXT" x\n')).toEqual([1, 3, 'bad record type ""TXT""'])
  })

  it('rejects a blank owner before any record', () => {
    expect(failure('; header\n   A 1.1.1.1\n')).toEqual([2, 4, 'no previous owner name'])
  })

  it('rejects names with empty labels and quoted names', () => {
    expect(failure('a..b A 1.1.1.1\n')).toEqual([1, 1, 'bad name "a..b"'])
    expect(failure('$ORIGIN .example.\n')).toEqual([1, 9, 'bad name ".example."'])
    expect(failure('"a" A 1.1.1.1\n')).toEqual([1, 1, 'name cannot be a quoted string'])
    expect(failure('$ORIGIN\n')).toEqual([1, 8, '$ORIGIN needs a name'])
  })

  it('rejects a record without any TTL source', () => {
    expect(() => parseZoneFile('a A 1.1.1.1\n', { origin: 'example.com' })).toThrow(
      'line 1, column 1: no TTL specified'
    )
  })

  it('rejects more than maxRecords entries at the first record over the limit', () => {
    expect(failure('a A 1.1.1.1\nb A 1.1.1.1\nc A 1.1.1.1\n', 2)).toEqual([
      3,
      1,
      'too many records (limit 2)',
    ])
    expect(failure('a A 1.1.1.1\n$GENERATE 1-2 h$ A 1.1.1.$\n', 2)).toEqual([
      2,
      1,
      'too many records (limit 2)',
    ])
  })

  it('counts columns in UTF-16 units with tabs as one column, and CRLF as a line end', () => {
    expect(failure('a\tA 1.1.1.1\r\n\tA\t( 1 \r\n')).toEqual([2, 4, 'unbalanced parenthesis'])
  })
})
