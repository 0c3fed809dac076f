/**
 * The requests certbot-dns-cloudflare (certbot 5.8) and dns-lexicon 3.25 send for a DNS-01
 * challenge, byte for byte as those clients build them: the zone lookup, the TXT record, the
 * lookup by content and the delete. Each client must leave nothing behind.
 */
import { describe, expect, it } from 'vitest'
import { api, DEFAULT_ACCOUNT } from './helpers.ts'

let counter = 0
async function zoneNamed(prefix: string): Promise<{ id: string; name: string }> {
  const name = `${prefix}-${Date.now().toString(36)}-${counter++}.example.com`
  const res = await api('POST', '/zones', { name, account: { id: DEFAULT_ACCOUNT } })
  expect(res.status, JSON.stringify(res.body)).toBe(200)
  return { id: res.body.result.id, name }
}

const q = (params: Record<string, string | number>): string =>
  new URLSearchParams(Object.entries(params).map(([k, v]) => [k, String(v)])).toString()

/** certbot-dns-cloudflare's `_find_zone_id`: each guess, `per_page=1`, the first result wins. */
async function certbotFindZone(domain: string): Promise<string | null> {
  const labels = domain.split('.')
  for (let i = 0; i < labels.length - 1; i++) {
    const guess = labels.slice(i).join('.')
    const res = await api('GET', `/zones?${q({ name: guess, per_page: 1 })}`)
    expect(res.status, JSON.stringify(res.body)).toBe(200)
    if (res.body.result.length > 0) return res.body.result[0].id
  }
  return null
}

/** certbot-dns-cloudflare's `_find_txt_record_id`. */
async function certbotFindTxt(zoneId: string, name: string, content: string) {
  const res = await api(
    'GET',
    `/zones/${zoneId}/dns_records?${q({ type: 'TXT', name, content, per_page: 1 })}`
  )
  expect(res.status, JSON.stringify(res.body)).toBe(200)
  return (res.body.result[0]?.id as string | undefined) ?? null
}

async function txtAt(zoneId: string, name: string): Promise<any[]> {
  const res = await api('GET', `/zones/${zoneId}/dns_records?${q({ type: 'TXT', name })}`)
  return res.body.result
}

describe('certbot-dns-cloudflare', () => {
  it('finds the zone with per_page=1, adds the challenge, finds it by content and deletes it', async () => {
    const z = await zoneNamed('acme1')
    const domain = `www.${z.name}`
    const recordName = `_acme-challenge.${domain}`
    const validation = 'acme-v2-1033-Zq3xYk9_Pq'

    const zoneId = await certbotFindZone(domain)
    expect(zoneId).toBe(z.id)
    const created = await api('POST', `/zones/${zoneId}/dns_records`, {
      type: 'TXT',
      name: recordName,
      content: validation,
      ttl: 120,
    })
    expect(created.status, JSON.stringify(created.body)).toBe(200)
    expect(created.body.result.content).toBe(validation)
    const found = await certbotFindTxt(z.id, recordName, validation)
    expect(found).toBe(created.body.result.id)

    // cleanup, as certbot runs it: the zone again, the record by name and content, delete by id
    const again = await certbotFindZone(domain)
    const id = await certbotFindTxt(again!, recordName, validation)
    expect(id).toBe(created.body.result.id)
    const del = await api('DELETE', `/zones/${again}/dns_records/${id}`)
    expect(del.status).toBe(200)
    expect(await txtAt(z.id, recordName)).toEqual([])
  })

  it('a wildcard plus apex certificate: two TXT records at one name, each found and deleted by its content', async () => {
    const z = await zoneNamed('acme2')
    const recordName = `_acme-challenge.${z.name}`
    const tokens = ['apex-token-111', 'wildcard-token-222']
    for (const t of tokens) {
      const zoneId = await certbotFindZone(z.name)
      const res = await api('POST', `/zones/${zoneId}/dns_records`, {
        type: 'TXT',
        name: recordName,
        content: t,
        ttl: 120,
      })
      expect(res.status, JSON.stringify(res.body)).toBe(200)
    }
    expect((await txtAt(z.id, recordName)).map((r) => r.content).sort()).toEqual(tokens)
    for (const t of tokens) {
      const id = await certbotFindTxt(z.id, recordName, t)
      expect(id).not.toBeNull()
      expect((await api('DELETE', `/zones/${z.id}/dns_records/${id}`)).status).toBe(200)
    }
    expect(await txtAt(z.id, recordName)).toEqual([])
  })

  it('a zone name guess that is not a zone answers an empty page, not an error', async () => {
    const res = await api('GET', `/zones?${q({ name: 'no-such-zone.example.com', per_page: 1 })}`)
    expect(res.status).toBe(200)
    expect(res.body.result).toEqual([])
  })
})

describe('dns-lexicon (Cloudflare provider)', () => {
  it('creates with "data": null, lists by type, name and content, and deletes by id', async () => {
    const z = await zoneNamed('lexicon')
    // authenticate: every zone, page by page, matched by name
    const zones = await api('GET', `/zones?${q({ page: 1, per_page: 100 })}`)
    expect(zones.status).toBe(200)
    expect(zones.body.result_info.total_pages).toBeGreaterThanOrEqual(1)

    const name = `_acme-challenge.${z.name}`
    const content = 'challengetoken-lexicon'
    const created = await api('POST', `/zones/${z.id}/dns_records`, {
      type: 'TXT',
      name,
      content,
      data: null,
      ttl: 3600,
    })
    expect(created.status, JSON.stringify(created.body)).toBe(200)
    expect(created.body.result).toMatchObject({ type: 'TXT', name, content, ttl: 3600 })
    expect(created.body.result).not.toHaveProperty('data')

    // a second create of the same record is 81058, which lexicon takes as success
    const dup = await api('POST', `/zones/${z.id}/dns_records`, {
      type: 'TXT',
      name,
      content,
      data: null,
      ttl: 3600,
    })
    expect(dup.status).toBe(400)
    expect(dup.body.errors[0]?.code).toBe(81058)

    // delete_record(rtype, name, content): list_records then DELETE each id
    const list = await api(
      'GET',
      `/zones/${z.id}/dns_records?${q({ per_page: 100, type: 'TXT', name, content })}`
    )
    expect(list.status).toBe(200)
    expect(list.body.result.map((r: any) => r.id)).toEqual([created.body.result.id])
    expect(list.body.result_info).toMatchObject({ page: 1, total_pages: 1 })
    for (const r of list.body.result) {
      expect((await api('DELETE', `/zones/${z.id}/dns_records/${r.id}`)).status).toBe(200)
    }
    expect(await txtAt(z.id, name)).toEqual([])
  })
})

describe('per_page accepts every value from 1', () => {
  it.each([1, 2, 3, 4])('GET /zones and GET /accounts with per_page=%i', async (n) => {
    const zones = await api('GET', `/zones?per_page=${n}`)
    expect(zones.status, JSON.stringify(zones.body)).toBe(200)
    expect(zones.body.result_info.per_page).toBe(n)
    expect(zones.body.result.length).toBeLessThanOrEqual(n)
    const accounts = await api('GET', `/accounts?per_page=${n}`)
    expect(accounts.status, JSON.stringify(accounts.body)).toBe(200)
    expect(accounts.body.result_info.per_page).toBe(n)
    expect((await api('GET', '/zones?per_page=0')).status).toBe(400)
  })

  it('pages through zones one at a time', async () => {
    const prefix = `pg${Date.now().toString(36)}`
    const a = await zoneNamed(prefix)
    const b = await zoneNamed(prefix)
    const names: string[] = []
    for (let page = 1; page <= 2; page++) {
      const res = await api(
        'GET',
        `/zones?${q({ name: `starts_with:${prefix}`, page, per_page: 1, order: 'name' })}`
      )
      expect(res.body.result).toHaveLength(1)
      names.push(res.body.result[0].name)
    }
    expect(names).toEqual([a.name, b.name].sort())
  })
})

describe('"data": null is absent wherever a record body is accepted', () => {
  it('PUT, PATCH and every batch list take "data": null', async () => {
    const z = await zoneNamed('datanull')
    const a = (
      await api('POST', `/zones/${z.id}/dns_records`, {
        type: 'TXT',
        name: 'a',
        content: 'one',
        data: null,
      })
    ).body.result
    const put = await api('PUT', `/zones/${z.id}/dns_records/${a.id}`, {
      type: 'TXT',
      name: 'a',
      content: 'two',
      data: null,
    })
    expect(put.status, JSON.stringify(put.body)).toBe(200)
    expect(put.body.result.content).toBe('two')

    // PATCH: null is "not given" — the content stays
    const patch = await api('PATCH', `/zones/${z.id}/dns_records/${a.id}`, { data: null, ttl: 600 })
    expect(patch.status, JSON.stringify(patch.body)).toBe(200)
    expect(patch.body.result).toMatchObject({ content: 'two', ttl: 600 })

    // a data type keeps its data when a PATCH sends "data": null
    const srv = (
      await api('POST', `/zones/${z.id}/dns_records`, {
        type: 'SRV',
        name: '_sip._tcp',
        data: { priority: 10, weight: 5, port: 5060, target: 'sip.example.net' },
      })
    ).body.result
    const srvPatch = await api('PATCH', `/zones/${z.id}/dns_records/${srv.id}`, {
      data: null,
      comment: 'kept',
    })
    expect(srvPatch.status, JSON.stringify(srvPatch.body)).toBe(200)
    expect(srvPatch.body.result.data).toEqual(srv.data)

    const batch = await api('POST', `/zones/${z.id}/dns_records/batch`, {
      patches: [{ id: a.id, data: null, content: 'three' }],
      puts: [
        {
          id: srv.id,
          type: 'SRV',
          name: '_sip._tcp',
          content: '1 5061 sip.example.net',
          data: null,
          priority: 20,
        },
      ],
      posts: [{ type: 'TXT', name: 'b', content: 'four', data: null }],
    })
    expect(batch.status, JSON.stringify(batch.body)).toBe(200)
    expect(batch.body.result.patches[0].content).toBe('three')
    expect(batch.body.result.puts[0].data).toMatchObject({ priority: 20, weight: 1, port: 5061 })
    expect(batch.body.result.posts[0].content).toBe('four')
  })

  it('a data type with "data": null and no content is still refused with a clear 400', async () => {
    const z = await zoneNamed('datanull')
    const res = await api('POST', `/zones/${z.id}/dns_records`, {
      type: 'SRV',
      name: '_sip._tcp',
      data: null,
    })
    expect(res.status).toBe(400)
    expect(res.body.errors[0]?.message).toMatch(/content is required|data is required/)
  })
})
