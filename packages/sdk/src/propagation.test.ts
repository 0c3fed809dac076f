import { describe, expect, it } from 'vitest'
import { EdgeDns } from './client.ts'
import { EdgeDnsError } from './errors.ts'
import { envelope, scripted } from './test-fetch.ts'

const status = (built: number, committed = 9) => ({
  committed_seq: committed,
  built_seq: built,
  lag_ms: 0,
  last_full_build: null,
  built_at: null,
  last_error: null,
  status: 'active',
})

describe('waitForPropagation', () => {
  it('polls until built_seq reaches the sequence', async () => {
    const { fetch, calls } = scripted((_c, i) => envelope(status(i < 2 ? 5 : 9)))
    const client = new EdgeDns({ baseUrl: 'http://dns.test', fetch })
    const p = await client.waitForPropagation('z', 9, { intervalMs: 1 })
    expect(p.built_seq).toBe(9)
    expect(calls).toHaveLength(3)
    expect(calls[0]!.url.pathname).toBe('/client/v4/zones/z/propagation')
  })

  it("defaults to the client's last write", async () => {
    const { fetch } = scripted((c) =>
      c.method === 'POST'
        ? envelope({ id: 'r' }, {}, { 'x-edgedns-change-seq': '7' })
        : envelope(status(7, 7))
    )
    const client = new EdgeDns({ baseUrl: 'http://dns.test', fetch })
    await client.records.create('z', { type: 'A', name: 'a', content: '192.0.2.1' })
    expect((await client.waitForPropagation('z')).built_seq).toBe(7)
  })

  it('times out with an EdgeDnsError of kind timeout', async () => {
    const { fetch } = scripted(() => envelope(status(1)))
    const client = new EdgeDns({ baseUrl: 'http://dns.test', fetch })
    await expect(
      client.waitForPropagation('z', 9, { timeoutMs: 30, intervalMs: 5 })
    ).rejects.toMatchObject({ kind: 'timeout', status: 0 })
  })

  it('stops at once on a pending zone, which is not built until it is activated', async () => {
    const { fetch, calls } = scripted(() =>
      envelope({
        ...status(0, 3),
        status: 'pending',
        message: 'The zone is pending: it is not served and nothing of it is built into KV.',
      })
    )
    const client = new EdgeDns({ baseUrl: 'http://dns.test', fetch })
    const err = await client
      .waitForPropagation('z', 3, { timeoutMs: 3000, intervalMs: 5 })
      .catch((e) => e)
    expect(err).toBeInstanceOf(EdgeDnsError)
    expect(err).toMatchObject({ kind: 'pending', status: 0 })
    expect(err.message).toMatch(/zone z is pending/)
    expect(err.message).toMatch(/activation_check|activated/)
    expect(calls).toHaveLength(1)
  })
})
