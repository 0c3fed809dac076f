import { env } from 'cloudflare:workers'
import { keyTag } from '../../packages/dnssec/src/index.ts'
import { describe, expect, it, vi } from 'vitest'
import { api, createZone, expectError } from './helpers.ts'
import { kvMeta, settle } from '../../workers/api/src/builder/test/helpers.ts'

describe('DNSSEC endpoints', () => {
  it('reports a new zone as disabled with null key fields', async () => {
    const z = await createZone('dnssec-off')
    const res = await api('GET', `/zones/${z.id}/dnssec`)
    expect(res.status).toBe(200)
    expect(res.body.result).toMatchObject({
      status: 'disabled',
      algorithm: null,
      ds: null,
      key_tag: null,
      dnssec_use_nsec3: false,
    })
  })

  it('enables: pending until built, then active with a combined ECDSA P-256 key whose DS matches its tag', async () => {
    const z = await createZone('dnssec-on')
    const res = await api('PATCH', `/zones/${z.id}/dnssec`, { status: 'active' })
    expect(res.status).toBe(200)
    const r = res.body.result
    expect(r).toMatchObject({
      status: 'pending',
      algorithm: '13',
      key_type: 'ECDSAP256SHA256',
      flags: 257,
      digest_algorithm: 'SHA256',
      digest_type: '2',
    })
    expect(r.public_key).toMatch(/^[A-Za-z0-9+/]{86}==$/)
    expect(r.ds).toBe(`${z.name}. 3600 IN DS ${r.key_tag} 13 2 ${r.digest}`)
    expect(r.digest).toMatch(/^[0-9A-F]{64}$/)
    await settle(z.id)
    expect((await api('GET', `/zones/${z.id}/dnssec`)).body.result).toMatchObject({
      status: 'active',
      key_tag: r.key_tag,
    })
    const meta = await kvMeta(z.name)
    expect(meta?.dnssec?.keys).toEqual([
      { tag: r.key_tag, publicKey: r.public_key, sealed: expect.stringMatching(/^v1\./) },
    ])
  })

  it('never stores or returns the private key in plain text', async () => {
    const z = await createZone('dnssec-sealed')
    await api('PATCH', `/zones/${z.id}/dnssec`, { status: 'active' })
    const row = await env.DB.prepare('SELECT dnssec FROM zones WHERE id = ?1')
      .bind(z.id)
      .first<{ dnssec: string }>()
    const stored = JSON.parse(row!.dnssec)
    expect(Object.keys(stored.keys[0]).sort()).toEqual([
      'created_on',
      'public_key',
      'sealed',
      'tag',
    ])
    expect(row!.dnssec).not.toMatch(/PRIVATE|"d"/)
    const body = JSON.stringify((await api('GET', `/zones/${z.id}/dnssec`)).body)
    expect(body).not.toContain(stored.keys[0].sealed)
  })

  it('shows no sealed private key in a propagation check whose zone metadata differs', async () => {
    const z = await createZone('dnssec-check')
    await api('PATCH', `/zones/${z.id}/dnssec`, { status: 'active' })
    await settle(z.id)
    const row = await env.DB.prepare('SELECT dnssec FROM zones WHERE id = ?1')
      .bind(z.id)
      .first<{ dnssec: string }>()
    const sealed: string = JSON.parse(row!.dnssec).keys[0].sealed
    const key = `z:${z.name}`
    const stored = (await env.ZONES_KV.get(key, 'text'))!
    expect(stored).toContain(sealed)
    // KV holds other metadata than D1 says it should: both are shown, the keys redacted.
    const meta = JSON.parse(stored)
    meta.soa.refresh += 1
    await env.ZONES_KV.put(key, JSON.stringify(meta))
    const res = await api('GET', `/zones/${z.id}/propagation/check`)
    expect(res.status).toBe(200)
    const diff = res.body.result.differences.find((d: any) => d.key === key)
    expect(diff).toMatchObject({ kind: 'different' })
    for (const text of [diff.expected, diff.actual])
      expect(JSON.parse(text).dnssec.keys).toEqual([
        { tag: expect.any(Number), publicKey: expect.any(String), sealed: '[redacted]' },
      ])
    expect(JSON.stringify(res.body)).not.toContain(sealed)
    // Missing metadata: the expected text alone, redacted too.
    await env.ZONES_KV.delete(key)
    const missing = await api('GET', `/zones/${z.id}/propagation/check`)
    expect(missing.body.result.differences).toContainEqual({
      key,
      kind: 'missing',
      expected: expect.stringContaining('"sealed":"[redacted]"'),
    })
    expect(JSON.stringify(missing.body)).not.toContain(sealed)
  })

  it('disables into pending-disabled for the grace period, and DELETE removes the keys at once', async () => {
    const z = await createZone('dnssec-disable')
    await api('PATCH', `/zones/${z.id}/dnssec`, { status: 'active' })
    const disabled = await api('PATCH', `/zones/${z.id}/dnssec`, { status: 'disabled' })
    expect(disabled.body.result.status).toBe('pending-disabled')
    await settle(z.id)
    expect((await kvMeta(z.name))?.dnssec?.until).toBeGreaterThan(Date.now() / 1000 + 86400)
    const del = await api('DELETE', `/zones/${z.id}/dnssec`)
    expect(del.body.result).toBe(z.id)
    await settle(z.id)
    expect((await kvMeta(z.name))?.dnssec).toBeUndefined()
    expect((await api('GET', `/zones/${z.id}/dnssec`)).body.result.status).toBe('disabled')
  })

  it('rolls the key: a second key signs beside the first, then the old one is removed', async () => {
    const z = await createZone('dnssec-roll')
    const first = (await api('PATCH', `/zones/${z.id}/dnssec`, { status: 'active' })).body.result
    const both = (await api('POST', `/zones/${z.id}/dnssec/keys`)).body.result
    expect(both.keys.map((k: any) => k.key_tag)).toEqual([first.key_tag, both.key_tag])
    expect(both.key_tag).not.toBe(first.key_tag)
    expectError(await api('POST', `/zones/${z.id}/dnssec/keys`), 400, 1006)
    const after = (await api('DELETE', `/zones/${z.id}/dnssec/keys/${first.key_tag}`)).body.result
    expect(after.keys.map((k: any) => k.key_tag)).toEqual([both.key_tag])
    expectError(await api('DELETE', `/zones/${z.id}/dnssec/keys/${both.key_tag}`), 400, 1006)
    expectError(await api('DELETE', `/zones/${z.id}/dnssec/keys/1`), 404, 1007)
  })

  it('generates the new key of a rollover again when its tag is the current key tag', async () => {
    const z = await createZone('dnssec-tag-clash')
    await api('PATCH', `/zones/${z.id}/dnssec`, { status: 'active' })
    // The zone's key becomes `pair`'s public key; the next generated key is `pair` again.
    const EC = { name: 'ECDSA', namedCurve: 'P-256' }
    const pair = (await crypto.subtle.generateKey(EC, true, ['sign', 'verify'])) as CryptoKeyPair
    const raw = new Uint8Array(
      (await crypto.subtle.exportKey('raw', pair.publicKey)) as ArrayBuffer
    )
    const publicKey = btoa(String.fromCharCode(...raw.subarray(1)))
    const tag = keyTag(publicKey)
    const row = await env.DB.prepare('SELECT dnssec FROM zones WHERE id = ?1')
      .bind(z.id)
      .first<{ dnssec: string }>()
    const state = JSON.parse(row!.dnssec)
    state.keys[0] = { ...state.keys[0], tag, public_key: publicKey }
    await env.DB.prepare('UPDATE zones SET dnssec = ?2 WHERE id = ?1')
      .bind(z.id, JSON.stringify(state))
      .run()
    const spy = vi.spyOn(crypto.subtle, 'generateKey').mockResolvedValueOnce(pair)
    try {
      const res = await api('POST', `/zones/${z.id}/dnssec/keys`)
      expect(res.status).toBe(200)
      const tags = res.body.result.keys.map((k: any) => k.key_tag)
      expect(tags[0]).toBe(tag)
      expect(new Set(tags).size).toBe(2)
      expect(spy.mock.calls.length).toBeGreaterThanOrEqual(2)
    } finally {
      spy.mockRestore()
    }
  })

  it('refuses to remove a key by a tag that names two keys', async () => {
    const z = await createZone('dnssec-tag-twice')
    await api('PATCH', `/zones/${z.id}/dnssec`, { status: 'active' })
    await api('POST', `/zones/${z.id}/dnssec/keys`)
    const row = await env.DB.prepare('SELECT dnssec FROM zones WHERE id = ?1')
      .bind(z.id)
      .first<{ dnssec: string }>()
    const state = JSON.parse(row!.dnssec)
    const tag = state.keys[0].tag
    state.keys[1].tag = tag
    await env.DB.prepare('UPDATE zones SET dnssec = ?2 WHERE id = ?1')
      .bind(z.id, JSON.stringify(state))
      .run()
    expectError(await api('DELETE', `/zones/${z.id}/dnssec/keys/${tag}`), 400, 1008)
    const after = await env.DB.prepare('SELECT dnssec FROM zones WHERE id = ?1')
      .bind(z.id)
      .first<{ dnssec: string }>()
    expect(JSON.parse(after!.dnssec).keys).toHaveLength(2)
  })

  it('refuses what it does not offer with a validation error', async () => {
    const z = await createZone('dnssec-bad')
    expect((await api('PATCH', `/zones/${z.id}/dnssec`, { status: 'on' })).status).toBe(400)
    expect((await api('PATCH', `/zones/${z.id}/dnssec`, { dnssec_use_nsec3: true })).status).toBe(
      400
    )
    expectError(await api('POST', `/zones/${z.id}/dnssec/keys`), 400, 1005)
  })

  it('refuses a key tag that is not 16 bits in decimal, before looking for the key', async () => {
    const z = await createZone('dnssec-tag-range')
    await api('PATCH', `/zones/${z.id}/dnssec`, { status: 'active' })
    for (const tag of ['99999999999999', '65536', '-1', 'abc', '0x10', '1e3', '%20']) {
      const res = await api('DELETE', `/zones/${z.id}/dnssec/keys/${tag}`)
      expectError(res, 400, 9000)
      expect(res.body.errors[0]!.message).toMatch(/key tag must be an integer from 0 to 65535/)
    }
    expectError(await api('DELETE', `/zones/${z.id}/dnssec/keys/65535`), 404, 1007)
    expectError(await api('DELETE', `/zones/${z.id}/dnssec/keys/0`), 404, 1007)
  })

  it('judges the body of a new key before the zone state, as PATCH does', async () => {
    const z = await createZone('dnssec-key-body')
    const inactive = await api('POST', `/zones/${z.id}/dnssec/keys`, { algorithm: '8' })
    expectError(inactive, 400, 9000)
    const patch = await api('PATCH', `/zones/${z.id}/dnssec`, { algorithm: '8' })
    expect(inactive.body.errors[0]).toEqual(patch.body.errors[0])
    await api('PATCH', `/zones/${z.id}/dnssec`, { status: 'active' })
    expect((await api('POST', `/zones/${z.id}/dnssec/keys`, {})).status).toBe(200)
    // During the rollover: the unknown field is named, not 1006.
    const rolling = await api('POST', `/zones/${z.id}/dnssec/keys`, { algorithm: '8' })
    expectError(rolling, 400, 9000)
    expect(rolling.body.errors[0]!.message).toContain('algorithm')
    expectError(await api('POST', `/zones/${z.id}/dnssec/keys`, {}), 400, 1006)
  })
})
