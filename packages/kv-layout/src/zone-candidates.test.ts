import { describe, expect, it } from 'vitest'
import { ancestorsBetween, isInZone, splitLabels, zoneCandidates } from './names.ts'

describe('name helpers', () => {
  it('keeps escaped dots inside a label', () => {
    expect(splitLabels('a\\.b.example.com')).toEqual(['a\\.b', 'example', 'com'])
  })

  it('lists zone candidates longest first', () => {
    expect(zoneCandidates('A.b.Example.com.')).toEqual([
      'a.b.example.com',
      'b.example.com',
      'example.com',
      'com',
    ])
  })

  it.each([
    ['a.b.c.example.com', 'example.com', ['b.c.example.com', 'c.example.com']],
    ['www.example.com', 'example.com', []],
    ['example.com', 'example.com', []],
    ['www.other.org', 'example.com', []],
    ['x.y.example.com.', 'EXAMPLE.com', ['y.example.com']],
  ])('ancestorsBetween(%s, %s)', (name, zone, want) => {
    expect(ancestorsBetween(name, zone)).toEqual(want)
  })

  it.each([
    ['www.example.com', 'example.com', true],
    ['example.com', 'example.com', true],
    ['badexample.com', 'example.com', false],
    ['a\\.example.com', 'example.com', false],
    ['a\\\\.example.com', 'example.com', true],
  ])('isInZone(%s, %s) = %s', (name, zone, want) => expect(isInZone(name, zone)).toBe(want))
})
