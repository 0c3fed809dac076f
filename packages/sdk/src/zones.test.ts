import { describe, expect, it } from 'vitest'
import { EdgeDns } from './client.ts'
import { EdgeDnsError } from './errors.ts'
import { envelope, failure, scripted } from './test-fetch.ts'

describe('the activation check', () => {
  it("PUTs the zone's activation_check and says whether the zone stays pending, with the API's reason", async () => {
    const reason =
      "example.com is still pending: no TXT record at _edgedns-verify.example.com holds the zone's verification_key; example.com is not delegated to ns1.edgedns.dev, ns2.edgedns.dev."
    const { fetch, calls } = scripted((_, i) =>
      i === 0
        ? envelope({ id: 'z1' }, { messages: [{ code: 10005, message: reason }] })
        : envelope({ id: 'z1' })
    )
    const client = new EdgeDns({ baseUrl: 'http://dns.test', token: 't', fetch })
    expect(await client.zones.activationCheck('z1')).toEqual({
      id: 'z1',
      pending: true,
      message: reason,
    })
    expect(calls[0]!.method).toBe('PUT')
    expect(calls[0]!.url.href).toBe('http://dns.test/client/v4/zones/z1/activation_check')
    expect(await client.zones.activationCheck('z1')).toEqual({
      id: 'z1',
      pending: false,
      message: null,
    })
  })

  it('throws the rate limit and refusals as EdgeDnsError', async () => {
    const { fetch } = scripted(() =>
      failure(
        429,
        971,
        'Rate limited: too many activation checks of this zone; retry in 60 seconds'
      )
    )
    const client = new EdgeDns({ baseUrl: 'http://dns.test', token: 't', fetch })
    const err = await client.zones.activationCheck('z1').catch((e: unknown) => e)
    expect(err).toBeInstanceOf(EdgeDnsError)
    expect(err).toMatchObject({ status: 429, code: 971 })
  })
})
