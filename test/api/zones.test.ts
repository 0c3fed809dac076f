import { describe, expect, it } from 'vitest'
import { api, createZone, DEFAULT_ACCOUNT, expectError } from './helpers.ts'

describe('zones', () => {
  it('creates a zone with name servers, SOA settings and an active status', async () => {
    const res = await api('POST', '/zones', {
      name: 'Create-Test.example.',
      account: { id: DEFAULT_ACCOUNT },
    })
    expect(res.status).toBe(200)
    expect(res.body.result).toMatchObject({
      name: 'create-test.example',
      status: 'active',
      account: { id: DEFAULT_ACCOUNT },
      type: 'full',
      paused: false,
    })
    expect(res.body.result.name_servers.length).toBeGreaterThanOrEqual(2)
    const settings = await api('GET', `/zones/${res.body.result.id}/dns_settings`)
    expect(settings.body.result.soa).toMatchObject({
      refresh: 10000,
      retry: 2400,
      expire: 604800,
      min_ttl: 1800,
      ttl: 3600,
    })
  })

  it('rejects a duplicate zone name with 1061 and an invalid one with 1099', async () => {
    const z = await createZone()
    expectError(
      await api('POST', '/zones', { name: z.name.toUpperCase(), account: { id: DEFAULT_ACCOUNT } }),
      400,
      1061
    )
    expectError(
      await api('POST', '/zones', { name: 'no_tld', account: { id: DEFAULT_ACCOUNT } }),
      400,
      1099
    )
    expectError(
      await api('POST', '/zones', { name: 'bad..example', account: { id: DEFAULT_ACCOUNT } }),
      400,
      1099
    )
  })

  it.each([
    ['-a.test', 'label "-a" starts with a hyphen'],
    ['a-.test', 'label "a-" ends with a hyphen'],
    ['1.2.3.4', 'the last label "4" is all digits'],
    ['_dmarc.foo.test', `label "_dmarc" contains '_'`],
    ['\u0640.test', 'U+0640 at position 1 is not allowed in a domain name by IDNA2008'],
    ['\u2603.test', 'U+2603 at position 1 is not allowed in a domain name by IDNA2008'],
  ])('refuses the zone name %j with 1099, saying why', async (name, why) => {
    const res = await api('POST', '/zones', { name, account: { id: DEFAULT_ACCOUNT } })
    expectError(res, 400, 1099)
    expect(res.body.errors[0]!.message).toContain(why)
  })

  it('lists with name operators and paging', async () => {
    const a = await createZone('alpha')
    await createZone('beta')
    const exact = await api('GET', `/zones?name=${a.name}`)
    expect(exact.body.result.map((r: any) => r.name)).toEqual([a.name])
    const contains = await api('GET', '/zones?name=contains:alpha&per_page=5')
    expect(contains.body.result.every((r: any) => r.name.includes('alpha'))).toBe(true)
    // Past the last page of the zones named like `a`'s (other files' zones share the runtime).
    const past = await api('GET', `/zones?name=${a.name}&page=99&per_page=5`)
    expect(past.status).toBe(200)
    expect(past.body.result).toEqual([])
  })

  it('gets, edits and deletes a zone; deleting removes its records', async () => {
    const z = await createZone()
    await api('POST', `/zones/${z.id}/dns_records`, {
      type: 'A',
      name: 'www',
      content: '192.0.2.1',
    })
    const edited = await api('PATCH', `/zones/${z.id}`, { paused: true })
    expect(edited.body.result.paused).toBe(true)
    expect((await api('GET', `/zones/${z.id}`)).body.result.paused).toBe(true)
    const del = await api('DELETE', `/zones/${z.id}`)
    expect(del.body.result).toEqual({ id: z.id })
    expectError(await api('GET', `/zones/${z.id}`), 404, 7003)
    expectError(await api('GET', `/zones/${z.id}/dns_records`), 404, 7003)
  })

  it('answers 400 7003 for a malformed zone id', async () => {
    expectError(await api('GET', '/zones/xyz/dns_records'), 400, 7003)
  })

  it('updates SOA and proxy addresses through dns_settings', async () => {
    const z = await createZone()
    const res = await api('PATCH', `/zones/${z.id}/dns_settings`, {
      soa: { min_ttl: 300, rname: 'hostmaster@example.net' },
      proxy_addresses: { ipv4: ['203.0.113.10'] },
    })
    expect(res.status).toBe(200)
    expect(res.body.result.soa).toMatchObject({ min_ttl: 300, rname: 'hostmaster.example.net' })
    expect(res.body.result.proxy_addresses.ipv4).toEqual(['203.0.113.10'])
    expectError(
      await api('PATCH', `/zones/${z.id}/dns_settings`, { soa: { refresh: 5 } }),
      400,
      9000
    )
  })
})

describe('nested zones across accounts', () => {
  const uniq = () => `${Date.now().toString(36)}${Math.floor(Math.random() * 1e6).toString(36)}`

  async function otherAccount(): Promise<string> {
    const res = await api('POST', '/accounts', { name: `nest-${uniq()}` })
    expect(res.status).toBe(200)
    return res.body.result.id
  }

  it('refuses a subdomain of another account’s zone with 1097 and writes nothing', async () => {
    const parent = `nest-${uniq()}.example`
    expect(
      (await api('POST', '/zones', { name: parent, account: { id: DEFAULT_ACCOUNT } })).status
    ).toBe(200)
    const other = await otherAccount()
    const res = await api('POST', '/zones', { name: `shop.${parent}`, account: { id: other } })
    expect(res.status).toBe(400)
    expect(res.body.errors?.[0]?.code).toBe(1097)
    // The other account's zone is not named: the message only echoes what the caller sent.
    expect(res.body.errors?.[0]?.message).toBe(
      `shop.${parent} cannot be added: it is a subdomain of a zone held by another account`
    )
    const list = await api('GET', `/zones?name=shop.${parent}`)
    expect(list.body.result).toEqual([])
  })

  it('refuses a parent of another account’s zone', async () => {
    const child = `deep.nest-${uniq()}.example`
    expect(
      (await api('POST', '/zones', { name: child, account: { id: DEFAULT_ACCOUNT } })).status
    ).toBe(200)
    const other = await otherAccount()
    const res = await api('POST', '/zones', {
      name: child.slice('deep.'.length),
      account: { id: other },
    })
    expect(res.status).toBe(400)
    expect(res.body.errors?.[0]?.code).toBe(1097)
    expect(res.body.errors?.[0]?.message).toContain('a parent of')
  })

  it('creates a long zone name once another account holds zones, and still refuses long nested names', async () => {
    const other = await otherAccount()
    const held = `${'h'.repeat(40)}-${uniq()}.example`
    expect((await api('POST', '/zones', { name: held, account: { id: other } })).status).toBe(200)
    const long = `${'l'.repeat(40)}.${'m'.repeat(20)}-${uniq()}.example`
    expect(long.length).toBeGreaterThan(68)
    const created = await api('POST', '/zones', { name: long, account: { id: DEFAULT_ACCOUNT } })
    expect(created.status).toBe(200)
    const below = await api('POST', '/zones', {
      name: `${'s'.repeat(50)}.${long}`,
      account: { id: other },
    })
    expect(below.body.errors?.[0]?.code).toBe(1097)
    expect(below.body.errors?.[0]?.message).toContain(
      'a subdomain of a zone held by another account'
    )
    const parent = `${'p'.repeat(40)}-${uniq()}.example`
    const deepChild = `${'d'.repeat(50)}.${'e'.repeat(50)}.${parent}`
    expect((await api('POST', '/zones', { name: deepChild, account: { id: other } })).status).toBe(
      200
    )
    const above = await api('POST', '/zones', {
      name: `${'e'.repeat(50)}.${parent}`,
      account: { id: DEFAULT_ACCOUNT },
    })
    expect(above.body.errors?.[0]?.code).toBe(1097)
    expect(above.body.errors?.[0]?.message).toContain('a parent of')
  })

  it('allows nested zones within one account, and unrelated names that only share a suffix string', async () => {
    const parent = `own-${uniq()}.example`
    expect(
      (await api('POST', '/zones', { name: parent, account: { id: DEFAULT_ACCOUNT } })).status
    ).toBe(200)
    expect(
      (await api('POST', '/zones', { name: `sub.${parent}`, account: { id: DEFAULT_ACCOUNT } }))
        .status
    ).toBe(200)
    const other = await otherAccount()
    expect(
      (await api('POST', '/zones', { name: `x${parent}`, account: { id: other } })).status
    ).toBe(200)
  })
})
