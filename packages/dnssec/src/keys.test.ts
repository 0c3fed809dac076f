import { describe, expect, it } from 'vitest'
import {
  dnskeyRdata,
  dsDigest,
  generateSigningKey,
  generateSigningKeyAvoiding,
  importPrivateKey,
  KEY_TAG_ATTEMPTS,
  KeyTagCollision,
  importPublicKey,
  keyTag,
} from './keys.ts'
import { signRRset, verifyRRset } from './rrsig.ts'
import { openPrivateKey, sealPrivateKey } from './seal.ts'
import { validityAt } from './validity.ts'

// RFC 6605 §6.1: the example.net key, its tag and its SHA-256 DS digest.
const RFC6605_KEY =
  'GojIhhXUN/u4v54ZQqGSnyhWJwaubCvTmeexv7bR6edbkrSqQpF64cYbcB7wNcP+e+MAnLr+Wi9xMWyQLc8NAA=='

describe('signing keys', () => {
  it('computes the key tag and DS digest of the RFC 6605 example key', async () => {
    expect(dnskeyRdata(RFC6605_KEY)).toBe(`257 3 13 ${RFC6605_KEY}`)
    expect(keyTag(RFC6605_KEY)).toBe(55648)
    expect(await dsDigest('example.net', RFC6605_KEY)).toBe(
      'B4C8C1FE2E7477127B27115656AD6256F424625BF5C1E2770CE6D6E37DF61D17'
    )
  })

  it('signs an RRset whatever the case and order of its rdata, verifiably by the public key only', async () => {
    const generated = await generateSigningKey()
    const key = {
      tag: keyTag(generated.publicKey),
      key: await importPrivateKey(generated.privatePkcs8),
    }
    const validity = validityAt(1_800_000_000, 'seed')
    const set = {
      owner: 'www.example.com',
      type: 15,
      ttl: 300,
      rdata: ['10 Mail.Example.com.', '5 b.example.com.'],
    }
    const rrsig = await signRRset(set, 'example.com', validity, key)
    const publicKey = await importPublicKey(generated.publicKey)
    const reordered = {
      ...set,
      rdata: ['5 b.example.com.', '10 mail.example.com.', '5 b.example.com.'],
    }
    expect(await verifyRRset(reordered, rrsig, publicKey)).toBe(true)
    expect(await verifyRRset({ ...set, ttl: 301 }, rrsig, publicKey)).toBe(false)
  })

  it('generates the key again while its tag is one the zone already has', async () => {
    const first = await generateSigningKey()
    let second = await generateSigningKey()
    while (keyTag(second.publicKey) === keyTag(first.publicKey)) second = await generateSigningKey()
    const queue = [first, first, second]
    let calls = 0
    const key = await generateSigningKeyAvoiding([keyTag(first.publicKey)], async () => {
      calls++
      return queue.shift()!
    })
    expect({ calls, tag: key.tag, publicKey: key.publicKey }).toEqual({
      calls: 3,
      tag: keyTag(second.publicKey),
      publicKey: second.publicKey,
    })
    await expect(
      generateSigningKeyAvoiding([keyTag(first.publicKey)], async () => first)
    ).rejects.toThrow(KeyTagCollision)
    expect(KEY_TAG_ATTEMPTS).toBeGreaterThan(1)
  })

  it('keeps the private key sealed: it opens only with the same secret for the same zone', async () => {
    const { privatePkcs8 } = await generateSigningKey()
    const secret = 'a-secret-of-sufficient-length'
    const sealed = await sealPrivateKey(privatePkcs8, secret, 'zone-1')
    expect(sealed).toMatch(/^v1\./)
    expect(await openPrivateKey(sealed, secret, 'zone-1')).toEqual(privatePkcs8)
    await expect(openPrivateKey(sealed, 'another-secret-of-length', 'zone-1')).rejects.toThrow(
      'does not open'
    )
    await expect(openPrivateKey(sealed, secret, 'zone-2')).rejects.toThrow('does not open')
    await expect(sealPrivateKey(privatePkcs8, 'short', 'zone-1')).rejects.toThrow('at least 16')
  })

  it('backdates inception for clock skew and spreads expirations by RRset', () => {
    const now = 1_800_000_123
    const a = validityAt(now, 'a.example.com|1')
    const b = validityAt(now, 'b.example.com|1')
    expect(a.inception).toBeLessThanOrEqual(now - 3600)
    expect(a.expiration).toBeGreaterThanOrEqual(now + 7 * 86400 - 3600)
    expect(a.expiration).toBeLessThan(now + 8 * 86400)
    expect(a.expiration).not.toBe(b.expiration)
  })
})
