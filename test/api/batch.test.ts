import { env } from 'cloudflare:workers'
import { describe, expect, it } from 'vitest'
import { api, createZone, expectError } from './helpers.ts'
import { snapshotZone } from './db-snapshot.ts'

async function seed(zoneId: string, n: number, prefix = 'h'): Promise<any[]> {
  const posts = Array.from({ length: n }, (_, i) => ({
    type: 'A',
    name: `${prefix}${i}`,
    content: `192.0.2.${i + 1}`,
  }))
  const res = await api('POST', `/zones/${zoneId}/dns_records/batch`, { posts })
  expect(res.status).toBe(200)
  return res.body.result.posts
}

describe('batch: order and results', () => {
  it('applies deletes, patches, puts, posts and returns full records for each', async () => {
    const z = await createZone()
    const [a, b, c] = await seed(z.id, 3)
    const res = await api('POST', `/zones/${z.id}/dns_records/batch`, {
      deletes: [{ id: a.id }],
      patches: [{ id: b.id, content: '198.51.100.2' }],
      puts: [{ id: c.id, type: 'AAAA', name: 'h2', content: '2001:db8::2' }],
      posts: [{ type: 'TXT', name: 'new', content: 'hi' }],
    })
    expect(res.status).toBe(200)
    expect(res.body.result.deletes.map((r: any) => r.id)).toEqual([a.id])
    expect(res.body.result.deletes[0].content).toBe('192.0.2.1')
    expect(res.body.result.patches[0]).toMatchObject({ id: b.id, content: '198.51.100.2' })
    expect(res.body.result.puts[0]).toMatchObject({
      id: c.id,
      type: 'AAAA',
      content: '2001:db8::2',
    })
    expect(res.body.result.posts[0]).toMatchObject({ type: 'TXT', content: 'hi' })
    const list = await api('GET', `/zones/${z.id}/dns_records?per_page=100`)
    expect(list.body.result_info.total_count).toBe(3)
  })

  it('lets a batch delete a CNAME and post an A at the same name (deletes run first)', async () => {
    const z = await createZone()
    const cname = (
      await api('POST', `/zones/${z.id}/dns_records`, {
        type: 'CNAME',
        name: 'swap',
        content: 'x.example.net',
      })
    ).body.result
    const res = await api('POST', `/zones/${z.id}/dns_records/batch`, {
      deletes: [{ id: cname.id }],
      posts: [{ type: 'A', name: 'swap', content: '192.0.2.7' }],
    })
    expect(res.status).toBe(200)
  })

  it('lets two records swap contents in one batch without tripping uniqueness', async () => {
    const z = await createZone()
    const [a, b] = await seed(z.id, 2, 's')
    await api('PATCH', `/zones/${z.id}/dns_records/${b.id}`, { name: 's0' })
    const res = await api('POST', `/zones/${z.id}/dns_records/batch`, {
      patches: [
        { id: a.id, content: '192.0.2.2' },
        { id: b.id, content: '192.0.2.1' },
      ],
    })
    expect(res.status).toBe(200)
  })

  it('rotates contents across three records, renames one and changes only the TTL of another, keeping ids and creation times', async () => {
    const z = await createZone()
    const [a, b, c, d] = await seed(z.id, 4, 'r')
    for (const r of [b, c]) await api('PATCH', `/zones/${z.id}/dns_records/${r.id}`, { name: 'r0' })
    const res = await api('POST', `/zones/${z.id}/dns_records/batch`, {
      patches: [
        { id: a.id, content: '192.0.2.2' },
        { id: b.id, content: '192.0.2.3' },
        { id: c.id, content: '192.0.2.1', name: 'moved' },
        { id: d.id, ttl: 300 },
      ],
    })
    expect(res.status).toBe(200)
    const list = (await api('GET', `/zones/${z.id}/dns_records?per_page=100`)).body.result as any[]
    const byId = new Map(list.map((r) => [r.id, r]))
    expect(list).toHaveLength(4)
    expect(byId.get(a.id)).toMatchObject({
      name: `r0.${z.name}`,
      content: '192.0.2.2',
      created_on: a.created_on,
    })
    expect(byId.get(b.id)).toMatchObject({
      name: `r0.${z.name}`,
      content: '192.0.2.3',
      created_on: b.created_on,
    })
    expect(byId.get(c.id)).toMatchObject({
      name: `moved.${z.name}`,
      content: '192.0.2.1',
      created_on: c.created_on,
    })
    expect(byId.get(d.id)).toMatchObject({
      name: `r3.${z.name}`,
      content: '192.0.2.4',
      ttl: 300,
      created_on: d.created_on,
    })
    expect(byId.get(d.id).modified_on).not.toBe(d.modified_on)
    const found = await api('GET', `/zones/${z.id}/dns_records?content=192.0.2.1`)
    expect(found.body.result.map((r: any) => r.id)).toEqual([c.id])
  })

  it('keeps every index in step with its rows through TTL, content, priority, rename and type updates', async () => {
    const z = await createZone()
    const [a, b, c, d] = await seed(z.id, 4, 'ix')
    const mx = (
      await api('POST', `/zones/${z.id}/dns_records`, {
        type: 'MX',
        name: 'ix-mx',
        content: 'mx.example.net',
        priority: 10,
      })
    ).body.result
    const res = await api('POST', `/zones/${z.id}/dns_records/batch`, {
      patches: [
        { id: a.id, ttl: 600 },
        { id: b.id, content: '198.51.100.2' },
        { id: c.id, name: 'ix-renamed' },
        { id: mx.id, priority: 5 },
      ],
      puts: [{ id: d.id, type: 'AAAA', name: 'ix3', content: '2001:db8::3' }],
    })
    expect(res.status).toBe(200)
    // D1 refuses PRAGMA integrity_check: read each index's own entries (covering scans) and the table's.
    const rows = async (sql: string) =>
      (await env.DB.prepare(sql).bind(z.id).raw()).map((r) => JSON.stringify(r)).sort()
    const cols = {
      dns_records_zone_type: 'rowid, type, name',
      dns_records_identity: 'rowid, name_rev, type, content, ifnull(priority, -1)',
    }
    for (const [index, list] of Object.entries(cols)) {
      const viaIndex = await rows(
        `SELECT ${list} FROM dns_records INDEXED BY ${index} WHERE zone_id = ?1`
      )
      expect(viaIndex, index).toEqual(
        await rows(`SELECT ${list} FROM dns_records NOT INDEXED WHERE zone_id = ?1`)
      )
      expect(viaIndex).toHaveLength(5)
    }
    const ids = async (q: string) =>
      ((await api('GET', `/zones/${z.id}/dns_records?${q}`)).body.result as any[])
        .map((r) => r.id)
        .sort()
    expect(await ids(`type=AAAA`)).toEqual([d.id])
    expect(await ids(`type=A&name=ix-renamed.${z.name}`)).toEqual([c.id])
    expect(await ids(`type=A&content=198.51.100.2`)).toEqual([b.id])
    expect(await ids(`type=MX&name=ix-mx.${z.name}`)).toEqual([mx.id])
    const dup = await api('POST', `/zones/${z.id}/dns_records`, {
      type: 'MX',
      name: 'ix-mx',
      content: 'mx.example.net',
      priority: 5,
    })
    expect(dup.status).toBe(400) // the identity index holds the new priority
  })

  it('swaps the priorities of two MX records at one name', async () => {
    const z = await createZone()
    const mx = (priority: number, content: string) => ({ type: 'MX', name: '@', content, priority })
    const created = await api('POST', `/zones/${z.id}/dns_records/batch`, {
      posts: [mx(10, 'a.mx.example.net'), mx(20, 'a.mx.example.net')],
    })
    const [ten, twenty] = created.body.result.posts
    const res = await api('POST', `/zones/${z.id}/dns_records/batch`, {
      patches: [
        { id: ten.id, priority: 20 },
        { id: twenty.id, priority: 10 },
      ],
    })
    expect(res.status).toBe(200)
    const after = (await api('GET', `/zones/${z.id}/dns_records?type=MX`)).body.result as any[]
    expect(Object.fromEntries(after.map((r) => [r.id, r.priority]))).toEqual({
      [ten.id]: 20,
      [twenty.id]: 10,
    })
  })

  it('puts unchanged patches and puts at the end of their lists', async () => {
    const z = await createZone()
    const [a, b] = await seed(z.id, 2)
    const res = await api('POST', `/zones/${z.id}/dns_records/batch`, {
      patches: [
        { id: a.id, content: a.content },
        { id: b.id, ttl: 120 },
      ],
    })
    expect(res.body.result.patches.map((r: any) => r.id)).toEqual([b.id, a.id])
    expect(res.body.result.patches[1].modified_on).toBe(a.modified_on)
  })

  it('answers with only the lists the request had', async () => {
    const z = await createZone()
    const res = await api('POST', `/zones/${z.id}/dns_records/batch`, {
      posts: [{ type: 'A', name: 'x', content: '192.0.2.1' }],
    })
    expect(Object.keys(res.body.result)).toEqual(['posts'])
  })
})

describe('batch: all or nothing', () => {
  for (const position of ['first', 'middle', 'last'] as const) {
    it(`leaves the zone byte-for-byte unchanged when the ${position} item is invalid`, async () => {
      const z = await createZone()
      const existing = await seed(z.id, 5)
      const before = await snapshotZone(z.id)
      const posts: any[] = Array.from({ length: 9 }, (_, i) => ({
        type: 'A',
        name: `n${i}`,
        content: `198.51.100.${i + 1}`,
      }))
      const bad = { type: 'A', name: 'bad', content: 'not-an-ip' }
      const at = position === 'first' ? 0 : position === 'middle' ? 4 : 8
      posts[at] = bad
      const res = await api('POST', `/zones/${z.id}/dns_records/batch`, {
        deletes: [{ id: existing[0].id }],
        patches: [{ id: existing[1].id, content: '203.0.113.1' }],
        posts,
      })
      expectError(res, 400, 9005)
      expect(res.body.errors[0]!.source?.pointer).toBe(`/posts/${at}`)
      expect(await snapshotZone(z.id)).toBe(before)
    })
  }

  it('reports the first failing item in execution order (a bad delete before a bad post)', async () => {
    const z = await createZone()
    const res = await api('POST', `/zones/${z.id}/dns_records/batch`, {
      deletes: [{ id: 'f'.repeat(32) }],
      posts: [{ type: 'A', name: 'x', content: 'bad' }],
    })
    expectError(res, 404, 81044)
    expect(res.body.errors[0]!.source?.pointer).toBe('/deletes/0')
  })

  it('reports a name conflict on an earlier item before an invalid later item (execution order)', async () => {
    const z = await createZone()
    const seeded = await api('POST', `/zones/${z.id}/dns_records`, {
      type: 'A',
      name: 'taken',
      content: '192.0.2.1',
    })
    expect(seeded.status).toBe(200)
    const cname = await api('POST', `/zones/${z.id}/dns_records/batch`, {
      posts: [
        { type: 'CNAME', name: 'taken', content: 'x.example.net' },
        { type: 'A', name: 'y', content: 'not-an-ip' },
      ],
    })
    expectError(cname, 400, 81053)
    expect(cname.body.errors[0]!.source?.pointer).toBe('/posts/0')
    const identical = await api('POST', `/zones/${z.id}/dns_records/batch`, {
      posts: [
        { type: 'A', name: 'taken', content: '192.0.2.1' },
        { type: 'MX', name: 'y', content: 'mx.example.net' },
      ],
    })
    expectError(identical, 400, 81058)
    expect(identical.body.errors[0]!.source?.pointer).toBe('/posts/0')
    // A conflicting patch runs before an invalid post.
    const patchConflict = await api('POST', `/zones/${z.id}/dns_records/batch`, {
      patches: [{ id: seeded.body.result.id, type: 'CNAME', content: 'z.example.net' }],
      posts: [
        { type: 'A', name: 'taken', content: '192.0.2.2' },
        { type: 'A', name: 'y', content: 'bad' },
      ],
    })
    expectError(patchConflict, 400, 81054)
    expect(patchConflict.body.errors[0]!.source?.pointer).toBe('/posts/0')
    // The other way round: an invalid earlier item wins over a later conflict.
    const invalidFirst = await api('POST', `/zones/${z.id}/dns_records/batch`, {
      posts: [
        { type: 'A', name: 'y', content: 'bad' },
        { type: 'CNAME', name: 'taken', content: 'x.example.net' },
      ],
    })
    expectError(invalidFirst, 400, 9005)
    expect(invalidFirst.body.errors[0]!.source?.pointer).toBe('/posts/0')
  })

  it('rejects duplicates inside one batch, blaming the later item', async () => {
    const z = await createZone()
    const res = await api('POST', `/zones/${z.id}/dns_records/batch`, {
      posts: [
        { type: 'A', name: 'd', content: '192.0.2.1' },
        { type: 'A', name: 'd', content: '192.0.2.1' },
      ],
    })
    expectError(res, 400, 81058)
    expect(res.body.errors[0]!.source?.pointer).toBe('/posts/1')
  })

  it('rejects a CNAME and an A posted at one name in one batch', async () => {
    const z = await createZone()
    const res = await api('POST', `/zones/${z.id}/dns_records/batch`, {
      posts: [
        { type: 'A', name: 'c', content: '192.0.2.1' },
        { type: 'CNAME', name: 'c', content: 'x.example.net' },
      ],
    })
    expectError(res, 400, 81053)
  })
})

describe('batch: limits', () => {
  it('rejects a batch above the account limit with a message naming the limit', async () => {
    const z = await createZone()
    const posts = Array.from({ length: 3501 }, (_, i) => ({
      type: 'A',
      name: `l${i}`,
      content: '192.0.2.1',
    }))
    const res = await api('POST', `/zones/${z.id}/dns_records/batch`, { posts })
    expectError(res, 400, 81063)
    expect(res.body.errors[0]!.message).toMatch(/3500/)
  })

  it('rejects a body that is not a batch object', async () => {
    const z = await createZone()
    expectError(await api('POST', `/zones/${z.id}/dns_records/batch`, { posts: 'nope' }), 400, 9000)
    expectError(await api('POST', `/zones/${z.id}/dns_records/batch`, [1, 2]), 400, 9000)
  })
})
