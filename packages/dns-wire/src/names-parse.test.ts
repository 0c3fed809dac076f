/**
 * Presentation names to labels: names without escapes take a shorter path than names with them;
 * both must give the same labels and refuse the same names.
 */
import { describe, expect, it } from 'vitest'
import { NameError, nameText, parseName } from './names.ts'

const bytes = (labels: Uint8Array[]) => labels.map((l) => [...l])

describe('parseName', () => {
  it('gives the same labels with or without escapes for the same octets', () => {
    expect(bytes(parseName('www.Example.com.'))).toEqual(bytes(parseName('www.\\069xample.com')))
    expect(bytes(parseName('*.a-b_c.d'))).toEqual(bytes(parseName('\\*.a-b_c.d')))
    expect(nameText(parseName('WWW.example.COM.'))).toBe('WWW.example.COM')
    expect(parseName('.')).toEqual([])
  })

  it('refuses empty labels, long labels, long names and bad characters either way', () => {
    const refused = (name: string) => expect(() => parseName(name)).toThrow(NameError)
    for (const escaped of ['', '\\097']) {
      refused(`a..b${escaped}`)
      refused(`.a${escaped}`)
      refused(`${'a'.repeat(64)}${escaped}.com`)
      refused(`${Array.from({ length: 64 }, () => 'abc').join('.')}${escaped}`)
      refused(`a b${escaped}.com`)
      refused(`a\u00e9${escaped}.com`)
    }
    expect(parseName(`${'a'.repeat(63)}.com`)[0]!.length).toBe(63)
  })
})
