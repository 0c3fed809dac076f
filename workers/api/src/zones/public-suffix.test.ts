import { describe, expect, it } from 'vitest'
import { isPublicSuffix } from './public-suffix.ts'

describe('isPublicSuffix', () => {
  it.each(['com', 'co.uk', 'github.io', 'workers.dev', 'foo.ck', 'xn--p1ai'])(
    'refuses %s, a rule of the Public Suffix List',
    (name) => expect(isPublicSuffix(name)).toBe(true)
  )

  it.each([
    'example.com',
    'example.co.uk',
    'foo.github.io',
    'www.ck',
    'sub.example.com',
    // Reserved for testing and documentation (RFC 2606, RFC 6761): not on the list.
    'test',
    'example',
    'invalid',
    'localhost',
    'zone-1.example',
    'a.test',
    'example.net',
    'example.org',
  ])('accepts %s', (name) => expect(isPublicSuffix(name)).toBe(false))
})
