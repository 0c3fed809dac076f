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

  it('folds ASCII case only and drops the trailing dot for lookups', () => {
    expect(lookupName('WwW.Example.COM.')).toBe('www.example.com')
    expect(lookupName('ÄB.example')).toBe('Äb.example')
    expect(lookupName('.')).toBe('')
  })
})
