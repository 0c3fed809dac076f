import { describe, expect, it } from 'vitest'
import { concatBytes } from './index.ts'

describe('concatBytes', () => {
  it('joins the parts in order into a new array', () => {
    const a = Uint8Array.of(1, 2)
    const joined = concatBytes([a, new Uint8Array(0), Uint8Array.of(3)])
    expect(joined).toEqual(Uint8Array.of(1, 2, 3))
    joined[0] = 9
    expect(a[0]).toBe(1)
  })

  it('is empty for no parts', () => {
    expect(concatBytes([])).toEqual(new Uint8Array(0))
  })
})
