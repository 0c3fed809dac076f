import { describe, expect, it } from 'vitest'
import { isIdentityCoding } from './content-encoding.ts'

describe('isIdentityCoding', () => {
  it.each(['', 'identity', 'IDENTITY', ' identity ', 'identity, identity'])('%j is identity', (v) =>
    expect(isIdentityCoding(v)).toBe(true)
  )
  it.each(['gzip', 'x-gzip', 'br', 'deflate', 'zstd', 'identity, gzip', 'compress', 'bogus'])(
    '%j is not',
    (v) => expect(isIdentityCoding(v)).toBe(false)
  )
})
