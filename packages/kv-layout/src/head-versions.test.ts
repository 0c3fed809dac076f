import { describe, expect, it } from 'vitest'
import { encodeZoneMeta } from './codec.ts'
import { bucketVersion, decodeHead, encodeHead, headVersionKey } from './head.ts'
import { zoneImage } from './image.ts'
import { bucketKey, bucketOf } from './keys.ts'
import { baseMeta } from './test-zone-writer.ts'

describe('bucket versions in a head', () => {
  const meta = encodeZoneMeta({ ...baseMeta('example.test'), layout: { buckets: 16 } })

  it('round-trip: every bucket reads its listed version, the others the base', () => {
    const text = encodeHead({
      n: 9,
      seq: 3,
      meta,
      overlay: [],
      changed: [[9, [2, 5]]],
      bv: {
        base: 4,
        changed: new Map([
          [5, 9],
          [2, 7],
        ]),
      },
    })
    const head = decodeHead(text)
    expect(bucketVersion(head.bv!, 2)).toBe(7)
    expect(bucketVersion(head.bv!, 5)).toBe(9)
    expect(bucketVersion(head.bv!, 0)).toBe(4)
  })

  it('a head without versions names the unversioned keys', () => {
    const head = decodeHead(encodeHead({ n: 1, seq: 0, meta, overlay: [], changed: [] }))
    expect(head.bv).toBeUndefined()
    expect(bucketKey('Example.Test.', 16, 3)).toBe('b:example.test:16:3')
    expect(bucketKey('example.test', 16, 3, { id: 'ab12', v: 12 })).toBe(
      'b:example.test:16:3:12:ab12'
    )
  })

  it('refuses malformed versions', () => {
    const text = encodeHead({ n: 2, seq: 0, meta, overlay: [], changed: [] })
    const bad = text.replace(/}$/, ',"bv":[1,[2]]}')
    expect(() => decodeHead(bad)).toThrow(/bucket versions/)
  })

  it('a versioned head key never collides with a slot key, nor with another zone of the same name', () => {
    expect(headVersionKey('example.test', 'ab12', 3)).toBe('h:example.test:v:ab12:3')
    expect(headVersionKey('example.test', 'cd34', 3)).not.toBe(
      headVersionKey('example.test', 'ab12', 3)
    )
  })
})

describe('a versioned zone image (layout format 4)', () => {
  it('names every bucket at version 1 under the zone id, and head 1 under its versioned key too', () => {
    const meta = baseMeta('img.test', 'c'.repeat(32))
    const image = zoneImage(meta, [['www.img.test', { v: 1, sets: {} }]], {
      buckets: 16,
      versioned: true,
    })
    const head = decodeHead(image.get(headVersionKey('img.test', meta.id, 1))!)
    expect(head.bv).toEqual({ base: 1, changed: new Map() })
    const i = bucketOf('www.img.test', 16)
    expect(
      image.get(bucketKey('img.test', 16, i, { id: meta.id, v: bucketVersion(head.bv!, i) }))
    ).toContain('www')
    expect(image.has(bucketKey('img.test', 16, i))).toBe(false)
  })
})
