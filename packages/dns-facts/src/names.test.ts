import { describe, expect, it } from 'vitest'
import { endsWithUnescapedDot, fqdn, lookupName, withoutTrailingDot } from './names.ts'

describe('name normalisation', () => {
  it.each([
    ['', '.'],
    ['.', '.'],
    ['example.com', 'example.com.'],
    ['example.com.', 'example.com.'],
    ['a\\.', 'a\\..'],
  ])('fqdn(%j) = %j', (name, want) => expect(fqdn(name)).toBe(want))

  it('tells an escaped final dot from a trailing one', () => {
    expect(endsWithUnescapedDot('a\\.')).toBe(false)
    expect(endsWithUnescapedDot('a\\\\.')).toBe(true)
    expect(withoutTrailingDot('a\\.')).toBe('a\\.')
    expect(withoutTrailingDot('.')).toBe('')
  })

  // Stored names (records, KV keys) are lowercase, escape-free and dotless; query names arrive in
  // presentation form from the wire decoder, with `\.` and `\DDD` escapes.
  it.each([
    ['WWW.Example.COM.', 'www.example.com'],
    ['example.com', 'example.com'],
    ['', ''],
    ['.', ''],
    ['a\\..example', 'a\\..example'],
    ['a\\.', 'a\\.'],
    ['A\\\\.', 'a\\\\'],
    ['a\\\\\\.', 'a\\\\\\.'],
    ['A\\046B.Example.', 'a\\046b.example'],
    ['\\065.example', '\\065.example'],
    ['a\\.b.', 'a\\.b'],
  ])('lookupName(%j) = %j', (name, want) => expect(lookupName(name)).toBe(want))

  it('folds ASCII case only and drops the trailing dot for lookups', () => {
    expect(lookupName('WwW.Example.COM.')).toBe('www.example.com')
    expect(lookupName('ÄB.example')).toBe('Äb.example')
    expect(lookupName('.')).toBe('')
  })
})
