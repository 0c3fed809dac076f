import { createHash } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import type { ZoneMeta } from '@edgedns/kv-layout'
import { parentSignals } from './cds.ts'

const KEY = Buffer.from(Array.from({ length: 64 }, (_, i) => i)).toString('base64')

const zone = (dnssec: ZoneMeta['dnssec']): ZoneMeta =>
  ({ name: 'Example.com', dnssec }) as unknown as ZoneMeta

describe('CDS and CDNSKEY', () => {
  it('give each key as its DS (SHA-256 over the owner and the DNSKEY rdata) and its DNSKEY', () => {
    const owner = Buffer.from([7, ...Buffer.from('example'), 3, ...Buffer.from('com'), 0])
    const rdata = Buffer.concat([Buffer.from([1, 1, 3, 13]), Buffer.from(KEY, 'base64')])
    const digest = createHash('sha256').update(owner).update(rdata).digest('hex').toUpperCase()
    const sets = parentSignals(zone({ keys: [{ tag: 4242, publicKey: KEY, sealed: 'x' }] }), 3600)
    expect(sets.CDS).toEqual({ ttl: 3600, rdata: [`4242 13 2 ${digest}`] })
    expect(sets.CDNSKEY).toEqual({ ttl: 3600, rdata: [`257 3 13 ${KEY}`] })
  })

  it('ask the parent to delete the DS while a disable waits out cached DS (RFC 8078 §4)', () => {
    const sets = parentSignals(
      zone({ keys: [{ tag: 1, publicKey: KEY, sealed: 'x' }], until: 2_000_000_000 }),
      3600
    )
    expect(sets).toEqual({
      CDS: { ttl: 3600, rdata: ['0 0 0 00'] },
      CDNSKEY: { ttl: 3600, rdata: ['0 3 0 AA=='] },
    })
  })
})
