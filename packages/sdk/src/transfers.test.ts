import { describe, expect, it } from 'vitest'
import { EdgeDns } from './client.ts'
import { envelope, scripted } from './test-fetch.ts'

describe('zone transfers', () => {
  it('calls the secondary_dns routes of the account and the zone with their methods', async () => {
    const { fetch, calls } = scripted((call) =>
      envelope(call.url.pathname.endsWith('/status') ? 'Enabled' : { id: 'x' })
    )
    const t = new EdgeDns({ baseUrl: 'http://dns.test', token: 't', fetch }).transfers
    await t.peers.list('a1')
    await t.peers.update('a1', 'p1', { name: 'ns1', ip: '192.0.2.1' })
    await t.tsigs.delete('a1', 'k1')
    await t.acls.create('a1', { name: 'office', ip_range: '192.0.2.0/24' })
    await t.catalog.put('a1', { name: 'catalog.example', peers: ['p1'] })
    await t.outgoing.create('z1', { name: 'example.com', peers: ['p1'] })
    expect(await t.outgoing.status('z1')).toBe('Enabled')
    await t.outgoing.forceNotify('z1')
    await t.incoming.update('z2', { name: 'example.net', peers: ['p1'], auto_refresh_seconds: 600 })
    await t.incoming.forceAxfr('z2')
    expect(calls.map((c) => `${c.method} ${c.url.pathname.replace('/client/v4', '')}`)).toEqual([
      'GET /accounts/a1/secondary_dns/peers',
      'PUT /accounts/a1/secondary_dns/peers/p1',
      'DELETE /accounts/a1/secondary_dns/tsigs/k1',
      'POST /accounts/a1/secondary_dns/acls',
      'PUT /accounts/a1/secondary_dns/catalog',
      'POST /zones/z1/secondary_dns/outgoing',
      'GET /zones/z1/secondary_dns/outgoing/status',
      'POST /zones/z1/secondary_dns/outgoing/force_notify',
      'PUT /zones/z2/secondary_dns/incoming',
      'POST /zones/z2/secondary_dns/force_axfr',
    ])
    expect(calls[1]!.body).toEqual({ name: 'ns1', ip: '192.0.2.1' })
  })
})
