/**
 * Text outside the Basic Multilingual Plane leaves the worker as UTF-8: 😀 in a stored TXT value
 * is the four octets F0 9F 98 80 on the wire, and the same character in the JSON API.
 */
import { beforeAll, describe, expect, it } from 'vitest'
import { askJson, getWire } from './helpers/doh.ts'
import { encodeQuery } from '../../packages/dns-wire/src/index.ts'
import { seedZone } from './helpers/seed.ts'

beforeAll(() =>
  seedZone(
    'utf8.test',
    `
@      3600 IN SOA ns1 hostmaster 1 7200 3600 1209600 300
emoji   300 IN TXT "smile 😀"
`
  )
)

const hex = (b: Uint8Array): string => [...b].map((x) => x.toString(16).padStart(2, '0')).join('')

describe('character-strings outside the BMP', () => {
  it('a TXT value with an emoji is one 4-octet UTF-8 character on the wire', async () => {
    const res = await getWire(encodeQuery('emoji.utf8.test', 'TXT'))
    const wire = hex(new Uint8Array(await res.arrayBuffer()))
    const text = hex(new TextEncoder().encode('smile 😀'))
    expect(wire).toContain(`0a${text}`)
    expect(wire).not.toContain('efbfbd')
  })

  it('the JSON API shows the same character', async () => {
    const j = await askJson('emoji.utf8.test', 'TXT')
    expect(j.body.Answer[0].data).toBe('"smile 😀"')
  })
})
