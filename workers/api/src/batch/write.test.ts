import { describe, expect, it } from 'vitest'
import type { DnsRecord } from '../records/model.ts'
import type { Change } from './plan.ts'
import { routeUpdates } from './write.ts'

const rec = (id: string, name: string, content: string, extra: Partial<DnsRecord> = {}): DnsRecord => ({
  id, zoneId: 'z', name, type: 'A', content, data: null, priority: null, ttl: 1, proxied: false, comment: null, tags: [], settings: {},
  createdOn: 't', modifiedOn: 't', commentModifiedOn: null, tagsModifiedOn: null, ...extra,
})
const update = (before: DnsRecord, after: Partial<DnsRecord>): Change => ({ op: 'update', recordId: before.id, before, after: { ...before, ...after } })
const ids = (cs: Change[]) => cs.map((c) => c.recordId)

describe('routeUpdates', () => {
  it('rewrites unindexed changes without touching indexes and identity changes in place', () => {
    const r = routeUpdates([update(rec('a', 'x.example', '192.0.2.1'), { ttl: 300 }), update(rec('b', 'y.example', '192.0.2.2'), { content: '192.0.2.9' })])
    expect([ids(r.unindexed), ids(r.inPlace), ids(r.reinsert)]).toEqual([['a'], ['b'], []])
  })

  it('re-inserts an update that takes over the identity another updated record still holds', () => {
    const a = rec('a', 'x.example', '192.0.2.1')
    const b = rec('b', 'x.example', '192.0.2.2')
    const r = routeUpdates([update(a, { content: '192.0.2.2' }), update(b, { content: '192.0.2.3' })])
    expect([ids(r.inPlace), ids(r.reinsert)]).toEqual([['b'], ['a']])
  })

  it('treats a priority change as an identity change, as the unique index does', () => {
    const mx = rec('m', 'example', 'mx.example.net', { type: 'MX', priority: 10 })
    const r = routeUpdates([update(mx, { priority: 20 })])
    expect(ids(r.inPlace)).toEqual(['m'])
  })

  it('leaves deletes and creates alone', () => {
    const r = routeUpdates([{ op: 'delete', recordId: 'd', before: rec('d', 'x.example', '192.0.2.1'), after: null }])
    expect([r.unindexed, r.inPlace, r.reinsert]).toEqual([[], [], []])
  })
})
