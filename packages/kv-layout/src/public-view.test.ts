import { describe, expect, it } from 'vitest'
import { publicValueText, REDACTED } from './public-view.ts'

const META = JSON.stringify({
  v: 1,
  name: 'example.com',
  dnssec: {
    keys: [
      { tag: 1, publicKey: 'pub1', sealed: 'v1.aXY=.Y3Q=' },
      { tag: 2, publicKey: 'pub2', sealed: 'v1.aXZ2.Y3R0' },
    ],
  },
})

describe('publicValueText', () => {
  it('redacts every sealed key of zone metadata and keeps it valid JSON', () => {
    const shown = publicValueText('z:example.com', META)
    expect(shown).not.toContain('v1.')
    expect(JSON.parse(shown).dnssec.keys).toEqual([
      { tag: 1, publicKey: 'pub1', sealed: REDACTED },
      { tag: 2, publicKey: 'pub2', sealed: REDACTED },
    ])
  })

  it('redacts the metadata a head slot carries, and a value cut short', () => {
    const head = `7 zone-id\n{"seq":3,"meta":${META},"overlay":{},"changed":[]}`
    expect(publicValueText('h:example.com:0', head)).not.toContain('v1.')
    const cut = META.slice(0, META.indexOf('v1.aXZ2') + 5)
    expect(publicValueText('z:example.com', cut)).not.toMatch(/v1\.aX/)
  })

  it('leaves record values alone, whatever their text', () => {
    const bucket = 'www\t[["TXT",300,["\\"sealed\\":\\"v1.x.y\\""]]]\n'
    expect(publicValueText('b:example.com:16:3', bucket)).toBe(bucket)
    const txtInMeta = JSON.stringify({ apex: { sets: { TXT: { rdata: ['"sealed":"x"'] } } } })
    expect(publicValueText('z:example.com', txtInMeta)).toBe(txtInMeta)
  })
})
