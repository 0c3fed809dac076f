/**
 * @edgedns/sdk against the real local stack: zones, records, batch (chunked with progress),
 * import/export, tokens, and, once the ZoneBuilder publishes to KV, waitForPropagation + DoH.
 */
import { collect, EdgeDns, EdgeDnsError, type BatchProgress } from '@edgedns/sdk'
import { beforeAll, describe, expect, inject, it } from 'vitest'

const client = new EdgeDns({ baseUrl: inject('stackBase'), token: inject('stackToken') })
let zoneId = ''
let zoneName = ''

beforeAll(async () => {
  zoneName = `sdk-e2e-${Date.now().toString(36)}.example`
  const z = await client.zones.create({ name: zoneName })
  zoneId = z.id
})

describe('@edgedns/sdk against the stack', () => {
  it('zones: get, list, byName, edit, dns settings, activation check', async () => {
    expect((await client.zones.get(zoneId)).name).toBe(zoneName)
    expect((await collect(client.zones.list({ name: zoneName }))).map((z) => z.id)).toEqual([
      zoneId,
    ])
    expect((await client.zones.byName(`${zoneName.toUpperCase()}.`))?.id).toBe(zoneId)
    expect((await client.zones.edit(zoneId, { paused: true })).paused).toBe(true)
    await client.zones.edit(zoneId, { paused: false })
    const s = await client.zones.editDnsSettings(zoneId, { soa: { min_ttl: 600 } })
    expect(s.soa.min_ttl).toBe(600)
    expect((await client.zones.dnsSettings(zoneId)).soa.min_ttl).toBe(600)
    // Verification is off locally: the zone is active, and its activation check says so.
    expect(await client.zones.activationCheck(zoneId)).toEqual({
      id: zoneId,
      pending: false,
      message: null,
    })
  })

  it('records: create, get, edit, update, list, delete, with change sequences', async () => {
    const a = await client.records.create(zoneId, {
      type: 'A',
      name: 'www',
      content: '192.0.2.1',
      ttl: 300,
      comment: 'web',
      tags: ['env:test'],
    })
    expect(a).toMatchObject({
      name: `www.${zoneName}`,
      content: '192.0.2.1',
      comment: 'web',
      tags: ['env:test'],
    })
    expect(a.changeSeq).toBeGreaterThan(1)
    expect(client.lastChangeSeq).toBe(a.changeSeq)
    expect((await client.records.get(zoneId, a.id)).id).toBe(a.id)
    const edited = await client.records.edit(zoneId, a.id, { content: '192.0.2.2' })
    expect(edited).toMatchObject({ content: '192.0.2.2', comment: 'web' })
    expect(edited.changeSeq).toBe(a.changeSeq! + 1)
    const updated = await client.records.update(zoneId, a.id, {
      type: 'A',
      name: 'www',
      content: '192.0.2.3',
    })
    expect(updated).toMatchObject({ content: '192.0.2.3', comment: null, tags: [] })
    const listed = await collect(
      client.records.list(zoneId, { name: { exact: `www.${zoneName}` } })
    )
    expect(listed.map((r) => r.id)).toEqual([a.id])
    expect(await client.records.delete(zoneId, a.id)).toEqual({ id: a.id })
    const missing = await client.records.get(zoneId, a.id).catch((e) => e)
    expect(missing).toBeInstanceOf(EdgeDnsError)
    expect(missing).toMatchObject({ status: 404, code: 81044 })
  })

  it('batch: one atomic request, errors carry the pointer', async () => {
    const res = await client.records.batch(zoneId, {
      posts: [
        { type: 'TXT', name: 'b1', content: 'one' },
        { type: 'MX', name: '@', content: 'mx.example.net', priority: 10 },
      ],
    })
    expect(res.posts).toHaveLength(2)
    const err = await client.records
      .batch(zoneId, {
        posts: [
          { type: 'A', name: 'ok', content: '192.0.2.9' },
          { type: 'A', name: 'bad', content: '300.0.0.1' },
        ],
      })
      .catch((e) => e)
    expect(err).toMatchObject({ status: 400, code: 9005, pointer: '/posts/1' })
    expect(
      await collect(client.records.list(zoneId, { name: { exact: `ok.${zoneName}` } }))
    ).toEqual([])
  })

  it('batch: chunked into atomic batches of a given size, with progress', async () => {
    const posts = Array.from({ length: 250 }, (_, i) => ({
      type: 'A' as const,
      name: `bulk${i}`,
      content: `198.51.100.${i % 250}`,
    }))
    const progress: BatchProgress[] = []
    const res = await client.records.batch(
      zoneId,
      { posts },
      { chunk: 100, onProgress: (p) => progress.push(p) }
    )
    expect(res.posts).toHaveLength(250)
    expect(progress.map((p) => [p.done, p.chunk, p.chunks])).toEqual([
      [100, 1, 3],
      [200, 2, 3],
      [250, 3, 3],
    ])
    expect(progress.at(-1)!.changeSeq).toBe(res.changeSeq)
    const all = await collect(
      client.records.list(zoneId, { name: { startswith: 'bulk' }, per_page: 60 })
    )
    expect(all).toHaveLength(250)

    const del = await client.records.batch(zoneId, { deletes: all.map((r) => ({ id: r.id })) })
    expect(del.deletes).toHaveLength(250)
  })

  it('batch: chunk sizes above the server limit shrink to the limit the server names (3,500)', async () => {
    const posts = Array.from({ length: 3600 }, (_, i) => ({
      type: 'A' as const,
      name: `big${i}`,
      content: `10.9.${i >> 8}.${i & 255}`,
    }))
    const tooBig = await client.records.batch(zoneId, { posts }).catch((e) => e)
    expect(tooBig).toMatchObject({ status: 400, code: 81063 })
    const progress: BatchProgress[] = []
    const res = await client.records.batch(
      zoneId,
      { posts },
      { chunk: 10_000, onProgress: (p) => progress.push(p) }
    )
    expect(res.posts).toHaveLength(3600)
    expect(progress.map((p) => [p.done, p.chunks])).toEqual([
      [3500, 2],
      [3600, 2],
    ])
    const ids = res.posts!.map((r) => ({ id: r.id }))
    expect(
      (await client.records.batch(zoneId, { deletes: ids }, { chunk: true })).deletes
    ).toHaveLength(3600)
  })

  it('import and export', async () => {
    const res = await client.records.import(
      zoneId,
      '$TTL 600\nimp1 A 192.0.2.50\nimp2 TXT "x y"\n',
      { proxied: false }
    )
    expect(res).toMatchObject({ recs_added: 2, total_records_parsed: 2 })
    expect(res.changeSeq).toBeGreaterThan(0)
    const text = await client.records.export(zoneId)
    expect(text).toContain(`imp1.${zoneName}.\t600\tIN\tA\t192.0.2.50`)
    const bad = await client.records
      .import(zoneId, 'ok A 192.0.2.1\nbad A 192.0.2\n')
      .catch((e) => e)
    expect(bad).toMatchObject({ status: 400, code: 9005 })
    expect(bad.message).toMatch(/^line 2: /)
  })

  it('tokens: create, verify with the new token, list, get, delete', async () => {
    const groups = await client.tokens.permissionGroups()
    const dnsRead = groups.find((g) => /dns/i.test(g.name) && /read/i.test(g.name))!
    const account = (await client.zones.get(zoneId)).account.id
    const token = await client.tokens.create({
      name: 'sdk e2e',
      policies: [
        {
          effect: 'allow',
          permission_groups: [{ id: dnsRead.id }],
          resources: { [`com.cloudflare.api.account.zone.${zoneId}`]: '*' },
        },
      ],
    })
    expect(token.value).toBeTruthy()
    const scoped = new EdgeDns({ baseUrl: inject('stackBase'), token: token.value })
    expect(await scoped.tokens.verify()).toMatchObject({ id: token.id, status: 'active' })
    expect((await scoped.zones.get(zoneId)).id).toBe(zoneId)
    const denied = await scoped.records
      .create(zoneId, { type: 'A', name: 'no', content: '192.0.2.1' })
      .catch((e) => e)
    expect(denied).toMatchObject({ status: 403 })
    expect((await client.tokens.list()).map((t) => t.id)).toContain(token.id)
    expect((await client.tokens.get(token.id)).name).toBe('sdk e2e')
    expect(await client.tokens.delete(token.id)).toEqual({ id: token.id })
    void account
  })

  it('waitForPropagation, then resolve() over DoH wire format sees the write', async () => {
    const rec = await client.records.create(zoneId, {
      type: 'A',
      name: 'doh',
      content: '203.0.113.77',
      ttl: 120,
    })
    const p = await client.waitForPropagation(zoneId, rec.changeSeq, { timeoutMs: 20_000 })
    expect(p.built_seq).toBeGreaterThanOrEqual(rec.changeSeq!)
    const m = await client.resolve(`DoH.${zoneName}`, 'A')
    expect(m.rcodeName).toBe('NOERROR')
    expect(m.flags.aa).toBe(true)
    expect(m.question[0]!.name).toBe(`DoH.${zoneName}.`)
    expect(m.answers.map((a) => [a.type, a.ttl, a.data])).toEqual([['A', 120, '203.0.113.77']])
    const nx = await client.resolve(`nope.${zoneName}`, 'A')
    expect(nx.rcodeName).toBe('NXDOMAIN')
    expect(nx.authority[0]!.type).toBe('SOA')
  })
})
