import { describe, expect, it } from 'vitest'
import { normalizeContent } from './content.ts'

const naptr = (regex: string) => () =>
  normalizeContent({
    type: 'NAPTR',
    data: { order: 1, preference: 2, flags: 'U', service: 'E2U+sip', regex, replacement: '.' },
  })

// Each verdict below is BIND 9.18's (named-checkzone), except where marked stricter.
describe('NAPTR regexp (RFC 3402 §3.2)', () => {
  it.each([
    '',
    '!^.*$!sip:info@example.com!',
    '!^\\+1(.*)$!sip:\\1@x!i',
    '!(a)|(b)!\\2!',
    '![[:alpha:]]!x!',
    '![]a]!x!',
    '![^]]!x!',
    '!a{3}!x!',
    '!a{1,}!x!',
    '!a\\!b!x!',
    '/a/b/ii',
    'xaxbx',
    '!a]!x!',
    '![a-]!x!',
    '!\\(!x!',
    '!(^a)!x!',
  ])('accepts %j', (regex) => {
    expect(naptr(regex)).not.toThrow()
  })

  it.each([
    ['x', /three delimiters/],
    ['é', /delimiter/],
    ['1a1b1', /delimiter/],
    ['!a!b!c', /only flag/],
    ['!a!b!i!', /more than three/],
    ['!a!\\1!', /group \\1/],
    ['!(a)!\\0!', /group \\0/],
    ['!a{2,1}!x!', /maximum below/],
    ['![z-a]!x!', /out of order/],
    ['!a||b!x!', /empty/],
    ['!(|a)!x!', /empty/],
    ['!a**!x!', /follows a repetition/],
    ['!*a!x!', /follows nothing/],
    ['!^*!x!', /follows an anchor/],
    ['!a{256}!x!', /over 255/],
    ['!(a!x!', /not closed/],
    ['![[:foo:]]!x!', /character class/],
    ['!\\2!x!', /back-references/],
    ['!a\u0000!x!', /NUL/],
    // stricter than BIND: empty groups, a lone ")" or "{", collating elements
    ['!()!x!', /empty/],
    ['!a)!x!', /has no "\("/],
    ['!a{!x!', /repetition count/],
    ['![[.a.]]!x!', /collating/],
  ])('refuses %j', (regex, reason) => {
    expect(naptr(regex)).toThrow(reason)
  })
})
