/**
 * Zone squatting: public suffixes are refused; with ZONE_VERIFICATION=required a new zone is
 * pending (the same name may be pending in several accounts), unserved, until its owner proves
 * control of the name by TXT or by delegation through `PUT /zones/{id}/activation_check`; one
 * account holds a name active. With verification off (local development, tests) zones are served
 * at once, as before.
 */
import { env } from 'cloudflare:workers'
import { describe, expect, it, vi } from 'vitest'
import type { OwnershipResolver } from '../../workers/api/src/zones/resolver.ts'
import {
  builder,
  kvHeadKeys,
  kvMeta,
  kvZoneKeys,
  settle,
} from '../../workers/api/src/builder/test/helpers.ts'
import { deployed } from './deployed.ts'
import { api, DEFAULT_ACCOUNT, expectError } from './helpers.ts'
import {
  FakeDns,
  uniqueName,
  newAccount,
  messages,
  dohStatus,
  REFUSED,
} from './zone-ownership-helpers.ts'

describe('public suffixes', () => {
  it('refuses a top-level domain with 1099', async () => {
    expectError(
      await api('POST', '/zones', { name: 'com', account: { id: DEFAULT_ACCOUNT } }),
      400,
      1099
    )
  })

  it.each(['co.uk', 'github.io', 'CO.UK.', 'workers.dev'])('refuses %s with 1099', async (name) => {
    const res = await api('POST', '/zones', { name, account: { id: DEFAULT_ACCOUNT } })
    expectError(res, 400, 1099)
    expect(res.body.errors[0]!.message).toContain('public suffix')
  })

  it('accepts domains registered under a public suffix and the reserved test names', async () => {
    for (const name of [
      uniqueName('reg').replace(/\.example$/, '.github.io'),
      uniqueName('reg').replace(/\.example$/, '.co.uk'),
      uniqueName('reg').replace(/\.example$/, '.test'),
      uniqueName('reg'),
    ]) {
      const res = await api('POST', '/zones', { name, account: { id: DEFAULT_ACCOUNT } })
      expect(res.status, JSON.stringify(res.body)).toBe(200)
    }
  })
})

describe('zone ownership with ZONE_VERIFICATION=required', () => {
  it('creates zones pending, lets the same name be pending in two accounts, once in each', async () => {
    const call = deployed(new FakeDns())
    const [a, b] = [await newAccount(), await newAccount()]
    const name = uniqueName('squat')
    const first = await call('POST', '/zones', { name, account: { id: a } })
    expect(first.status).toBe(200)
    expect(first.body.result).toMatchObject({ name, status: 'pending', activated_on: null })
    expect(first.body.result.verification_key).toMatch(/^[0-9a-f]{32}$/)
    const second = await call('POST', '/zones', { name, account: { id: b } })
    expect(second.status).toBe(200)
    expect(second.body.result.status).toBe('pending')
    expect(second.body.result.verification_key).not.toBe(first.body.result.verification_key)
    // A pending zone blocks nothing of another account, not even names below it.
    expect((await call('POST', '/zones', { name: `www.${name}`, account: { id: b } })).status).toBe(
      200
    )
    expectError(await call('POST', '/zones', { name, account: { id: a } }), 400, 1061)
  })

  it('activates the account whose TXT record holds its key; the other stays pending and cannot activate', async () => {
    const dns = new FakeDns()
    const call = deployed(dns)
    const [a, b] = [await newAccount(), await newAccount()]
    const name = uniqueName('txt')
    const za = (await call('POST', '/zones', { name, account: { id: a } })).body.result
    const zb = (await call('POST', '/zones', { name, account: { id: b } })).body.result

    // No proof yet: still pending, and the message says what is missing.
    const early = await call('PUT', `/zones/${za.id}/activation_check`)
    expect(early.status).toBe(200)
    expect(early.body.result).toEqual({ id: za.id })
    expect(messages(early)[0]!.code).toBe(10005)
    expect(messages(early)[0]!.message).toContain(`_edgedns-verify.${name}`)
    expect((await call('GET', `/zones/${za.id}`)).body.result.status).toBe('pending')

    dns.txts.set(`_edgedns-verify.${name}`, ['unrelated', za.verification_key])
    const check = await call('PUT', `/zones/${za.id}/activation_check`)
    expect(check.status).toBe(200)
    expect(messages(check)).toEqual([])
    const active = (await call('GET', `/zones/${za.id}`)).body.result
    expect(active.status).toBe('active')
    expect(active.activated_on).not.toBeNull()

    // B proves nothing of its own: still pending. Even with its key published, A holds the name.
    expect(messages(await call('PUT', `/zones/${zb.id}/activation_check`))[0]!.code).toBe(10005)
    dns.txts.set(`_edgedns-verify.${name}`, [za.verification_key, zb.verification_key])
    expectError(await call('PUT', `/zones/${zb.id}/activation_check`), 400, 1061)
    expect((await call('GET', `/zones/${zb.id}`)).body.result.status).toBe('pending')
    // Names under (and the same name in) an account holding it active stay refused to others.
    expectError(await call('POST', '/zones', { name: `x.${name}`, account: { id: b } }), 400, 1097)
    expectError(
      await call('POST', '/zones', { name, account: { id: await newAccount() } }),
      400,
      1061
    )

    // Once A deletes its zone, B can activate.
    expect((await call('DELETE', `/zones/${za.id}`)).status).toBe(200)
    expect(messages(await call('PUT', `/zones/${zb.id}/activation_check`))).toEqual([])
    expect((await call('GET', `/zones/${zb.id}`)).body.result.status).toBe('active')
  })

  it('activates by delegation to the zone name servers only while no other account has the name pending', async () => {
    const dns = new FakeDns()
    const call = deployed(dns)
    const [a, b] = [await newAccount(), await newAccount()]
    const name = uniqueName('ns')
    const za = (await call('POST', '/zones', { name, account: { id: a } })).body.result
    const zb = (await call('POST', '/zones', { name, account: { id: b } })).body.result
    expect(za.name_servers.length).toBeGreaterThan(0)

    dns.delegations.set(name, ['ns9.elsewhere.example'])
    const elsewhere = await call('PUT', `/zones/${za.id}/activation_check`)
    expect(messages(elsewhere)[0]!.message).toContain('ns9.elsewhere.example')

    // The name servers are the platform's, shared by every account: with B pending too, the
    // delegation cannot say which account the owner meant.
    dns.delegations.set(
      name,
      za.name_servers.map((n: string) => `${n.toUpperCase()}.`)
    )
    const shared = await call('PUT', `/zones/${za.id}/activation_check`)
    expect(messages(shared)[0]!.code).toBe(10005)
    expect(messages(shared)[0]!.message).toContain('pending in another account')
    expect((await call('GET', `/zones/${za.id}`)).body.result.status).toBe('pending')

    expect((await call('DELETE', `/zones/${zb.id}`)).status).toBe(200)
    expect(messages(await call('PUT', `/zones/${za.id}/activation_check`))).toEqual([])
    expect((await call('GET', `/zones/${za.id}`)).body.result.status).toBe('active')
    // A new pending copy elsewhere cannot take it over.
    const late = (await call('POST', '/zones', { name, account: { id: b } })).body
    expect(late.success).toBe(false)
    expect(late.errors[0]!.code).toBe(1061)
  })

  it('does not take vanity name servers as proof: the domain’s current provider’s are anybody’s to copy', async () => {
    const dns = new FakeDns()
    const call = deployed(dns)
    const name = uniqueName('victim')
    const providerNs = ['ns1.victim-dns-provider.example', 'ns2.victim-dns-provider.example']
    dns.delegations.set(name, providerNs)
    const zone = (await call('POST', '/zones', { name, account: { id: await newAccount() } })).body
      .result
    expect(zone.status).toBe('pending')
    const patched = await call('PATCH', `/zones/${zone.id}`, { vanity_name_servers: providerNs })
    expect(patched.status).toBe(200)
    const check = await call('PUT', `/zones/${zone.id}/activation_check`)
    expect(messages(check)[0]!.code).toBe(10005)
    expect(messages(check)[0]!.message).toContain(zone.name_servers[0])
    expect((await call('GET', `/zones/${zone.id}`)).body.result.status).toBe('pending')
  })

  it('does not build a pending zone fenced by an account move (status moving, never activated)', async () => {
    const call = deployed(new FakeDns())
    const name = uniqueName('fenced')
    const zone = (await call('POST', '/zones', { name, account: { id: await newAccount() } })).body
      .result
    const rec = await call('POST', `/zones/${zone.id}/dns_records`, {
      type: 'A',
      name,
      content: '192.0.2.81',
      ttl: 300,
    })
    expect(rec.status).toBe(200)
    // What the move's fence does to every live zone of the account on its source shard.
    await env.DB.prepare("UPDATE zones SET status = 'moving', version = version + 1 WHERE id = ?1")
      .bind(zone.id)
      .run()
    await builder(zone.id).rebuild(zone.id)
    expect(await kvMeta(name)).toBeNull()
    expect(await kvZoneKeys(name)).toEqual([])
    expect(await kvHeadKeys(name)).toEqual([])
  })

  it('does not serve a pending zone (REFUSED, nothing in KV) and serves it once activated', async () => {
    const dns = new FakeDns()
    const call = deployed(dns)
    const a = await newAccount()
    const name = uniqueName('serve')
    const zone = (await call('POST', '/zones', { name, account: { id: a } })).body.result
    const rec = await call('POST', `/zones/${zone.id}/dns_records`, {
      type: 'A',
      name: `www.${name}`,
      content: '192.0.2.80',
      ttl: 300,
    })
    expect(rec.status).toBe(200)
    // Whatever the builder is asked to do, a pending zone gets no keys.
    await builder(zone.id).rebuild(zone.id)
    expect(await kvMeta(name)).toBeNull()
    expect(await kvZoneKeys(name)).toEqual([])
    expect(await kvHeadKeys(name)).toEqual([])
    expect((await dohStatus(`www.${name}`)).Status).toBe(REFUSED)
    expect((await dohStatus(name, 'SOA')).Status).toBe(REFUSED)

    dns.txts.set(`_edgedns-verify.${name}`, [zone.verification_key])
    expect(messages(await call('PUT', `/zones/${zone.id}/activation_check`))).toEqual([])
    await settle(zone.id)
    // A name queried before its zone existed is trusted as "no zone here" for up to a second.
    const answer = await vi.waitFor(
      async () => {
        const a = await dohStatus(`www.${name}`)
        if (a.Status !== 0) throw new Error(`rcode ${a.Status}`)
        return a
      },
      { timeout: 3000, interval: 100 }
    )
    expect(answer.Answer?.map((r) => r.data)).toEqual(['192.0.2.80'])
  })
})

/**
 * Local rate limiters count in windows aligned to the wall-clock minute: a test that must stay in
 * one window waits for the next one when fewer than `needMs` are left of this one.
 */
async function freshWindow(needMs: number): Promise<void> {
  const left = 60_000 - (Date.now() % 60_000)
  if (left < needMs) await new Promise((resolve) => setTimeout(resolve, left + 50))
}

describe('the activation check rate limit', () => {
  it(
    'answers 429 with retry-after to a second lookup for the same pending zone within the minute, per zone, and never counts checks that look nothing up',
    { timeout: 30_000 },
    async () => {
      await freshWindow(10_000)
      const asked: string[] = []
      const dns = new FakeDns()
      const counting: OwnershipResolver = {
        txt: (name) => (asked.push(name), dns.txt(name)),
        nameServers: (name) => (asked.push(name), dns.nameServers(name)),
      }
      const call = deployed(counting as FakeDns, env.ACTIVATION_CHECK_LIMITER)
      const a = await newAccount()
      const zone = (await call('POST', '/zones', { name: uniqueName('limit'), account: { id: a } }))
        .body.result
      const other = (
        await call('POST', '/zones', { name: uniqueName('limit'), account: { id: a } })
      ).body.result

      expect(messages(await call('PUT', `/zones/${zone.id}/activation_check`))[0]!.code).toBe(10005)
      const lookups = asked.length
      expect(lookups).toBeGreaterThan(0)
      const again = await call('PUT', `/zones/${zone.id}/activation_check`)
      expect(again.status).toBe(429)
      expect(again.body.errors[0]!.code).toBe(971)
      expect(again.headers.get('retry-after')).toBe('60')
      // Refused before anything is looked up, and the zone is unchanged.
      expect(asked.length).toBe(lookups)
      expect((await call('GET', `/zones/${zone.id}`)).body.result.status).toBe('pending')
      // Another zone has its own budget.
      expect((await call('PUT', `/zones/${other.id}/activation_check`)).status).toBe(200)

      // Checks that look nothing up are not counted: an active zone, or verification off.
      const active = (
        await api('POST', '/zones', { name: uniqueName('free'), account: { id: DEFAULT_ACCOUNT } })
      ).body.result
      for (let i = 0; i < 3; i++)
        expect((await api('PUT', `/zones/${active.id}/activation_check`)).status).toBe(200)
    }
  )
})

describe('zone ownership with ZONE_VERIFICATION=off (local development, tests)', () => {
  it('creates zones active and serves them at once; the activation check of an active zone changes nothing', async () => {
    const name = uniqueName('dev')
    const res = await api('POST', '/zones', { name, account: { id: DEFAULT_ACCOUNT } })
    expect(res.body.result.status).toBe('active')
    expect(res.body.result.activated_on).not.toBeNull()
    const id = res.body.result.id
    await api('POST', `/zones/${id}/dns_records`, {
      type: 'A',
      name: `www.${name}`,
      content: '192.0.2.81',
      ttl: 300,
    })
    await settle(id)
    expect((await dohStatus(`www.${name}`)).Status).toBe(0)
    const check = await api('PUT', `/zones/${id}/activation_check`)
    expect(check.status).toBe(200)
    expect(check.body.result).toEqual({ id })
  })

  it('activates a zone left pending by a required deployment without asking the DNS', async () => {
    const dns = new FakeDns()
    const a = await newAccount()
    const name = uniqueName('switch')
    const zone = (await deployed(dns)('POST', '/zones', { name, account: { id: a } })).body.result
    expect(zone.status).toBe('pending')
    const check = await api('PUT', `/zones/${zone.id}/activation_check`)
    expect(check.status).toBe(200)
    expect(messages(check)).toEqual([])
    expect((await api('GET', `/zones/${zone.id}`)).body.result.status).toBe('active')
  })
})
