import { describe, expect, it } from 'vitest'
import { RECORD_COLUMNS, toRowValues, type DnsRecord } from '../records/model.ts'
import type { Change } from './plan.ts'
import { changedColumns, routeUpdates, rowValues, writeStatements } from './write.ts'

const rec = (
  id: string,
  name: string,
  content: string,
  extra: Partial<DnsRecord> = {}
): DnsRecord => ({
  id,
  zoneId: 'z',
  name,
  type: 'A',
  content,
  data: null,
  priority: null,
  ttl: 1,
  proxied: false,
  comment: null,
  tags: [],
  settings: {},
  createdOn: 't',
  modifiedOn: 't',
  commentModifiedOn: null,
  tagsModifiedOn: null,
  ...extra,
})
const update = (before: DnsRecord, after: Partial<DnsRecord>): Change => ({
  op: 'update',
  recordId: before.id,
  before,
  after: { ...before, ...after },
})
const ids = (cs: Change[]) => cs.map((c) => c.recordId)

describe('rowValues', () => {
  it('is toRowValues without zone_id and modified_on, column for column', () => {
    const r = rec('i', 'x.example', 'mx.example.net', {
      type: 'MX',
      priority: 5,
      data: { k: 1 },
      ttl: 300,
      proxied: true,
      comment: 'c',
      tags: ['a:b'],
      settings: { flatten_cname: true },
      commentModifiedOn: 'cm',
      tagsModifiedOn: 'tm',
      modifiedOn: 'mod',
    })
    const all = toRowValues(r)
    expect(rowValues(r)).toEqual(
      RECORD_COLUMNS.flatMap((c, i) => (c === 'zone_id' || c === 'modified_on' ? [] : [all[i]]))
    )
  })
})

describe('routeUpdates', () => {
  it('rewrites unindexed changes without touching indexes, content changes in the identity index only, renames in place', () => {
    const r = routeUpdates([
      update(rec('a', 'x.example', '192.0.2.1'), { ttl: 300 }),
      update(rec('b', 'y.example', '192.0.2.2'), { content: '192.0.2.9' }),
      update(rec('c', 'z.example', '192.0.2.3'), { name: 'w.example' }),
      update(rec('d', 'v.example', '192.0.2.4'), { type: 'AAAA', content: '2001:db8::4' }),
    ])
    expect([ids(r.unindexed), ids(r.identity), ids(r.inPlace), ids(r.reinsert)]).toEqual([
      ['a'],
      ['b'],
      ['c', 'd'],
      [],
    ])
  })

  it('re-inserts an update that takes over the identity another updated record still holds', () => {
    const a = rec('a', 'x.example', '192.0.2.1')
    const b = rec('b', 'x.example', '192.0.2.2')
    const r = routeUpdates([
      update(a, { content: '192.0.2.2' }),
      update(b, { content: '192.0.2.3' }),
    ])
    expect([ids(r.identity), ids(r.reinsert)]).toEqual([['b'], ['a']])
  })

  it('treats a priority change as an identity change, as the unique index does', () => {
    const mx = rec('m', 'example', 'mx.example.net', { type: 'MX', priority: 10 })
    const r = routeUpdates([update(mx, { priority: 20 })])
    expect(ids(r.identity)).toEqual(['m'])
  })

  it('leaves deletes and creates alone', () => {
    const r = routeUpdates([
      { op: 'delete', recordId: 'd', before: rec('d', 'x.example', '192.0.2.1'), after: null },
    ])
    expect([r.unindexed, r.identity, r.inPlace, r.reinsert]).toEqual([[], [], [], []])
  })
})

describe('changedColumns', () => {
  it('names only the columns some update of the group changes, in the table order', () => {
    const a = rec('a', 'x.example', '192.0.2.1')
    const b = rec('b', 'y.example', '192.0.2.2')
    expect(changedColumns([update(a, { content: '192.0.2.9' })])).toEqual(['content'])
    expect(
      changedColumns([
        update(a, { content: '192.0.2.9' }),
        update(b, { ttl: 300, comment: 'c', commentModifiedOn: 'cm' }),
      ])
    ).toEqual(['content', 'ttl', 'comment', 'comment_modified_on'])
    expect(changedColumns([update(a, { name: 'w.example' })])).toEqual(['name', 'name_rev'])
    expect(changedColumns([update(a, { tags: ['k:v'], settings: { ipv4_only: true } })])).toEqual([
      'tags',
      'settings',
    ])
  })

  it('agrees with comparing the values rowValues writes, column by column', () => {
    const base = rec('a', 'x.example', 'mx.example.net', {
      type: 'MX',
      priority: 10,
      data: { k: 1 },
      tags: ['a:1', 'b:2'],
      settings: { flatten_cname: false },
    })
    const edits: Partial<DnsRecord>[] = [
      {},
      { name: 'y.example' },
      { type: 'CNAME', priority: null },
      { content: 'mx2.example.net' },
      { data: null },
      { data: { k: 2 } },
      { data: { k: 1 } },
      { priority: 20 },
      { ttl: 300 },
      { proxied: true },
      { comment: 'c', commentModifiedOn: 'cm' },
      { tags: ['b:2', 'a:1'], tagsModifiedOn: 'tm' },
      { tags: ['a:1', 'b:2'] },
      { settings: { flatten_cname: true } },
      { settings: { flatten_cname: false } },
    ]
    const rowColumns = RECORD_COLUMNS.filter((c) => c !== 'zone_id' && c !== 'modified_on')
    const columns = rowColumns.filter((c) => c !== 'id' && c !== 'created_on')
    for (const edit of edits) {
      const change = update(base, edit)
      const before = rowValues(change.before!)
      const after = rowValues(change.after!)
      const expected = columns.filter((c) => {
        const k = rowColumns.indexOf(c)
        return before[k] !== after[k]
      })
      expect(changedColumns([change]), JSON.stringify(edit)).toEqual(expected)
    }
  })
})

/** A stand-in for D1 that records every statement the write path prepares and what it binds. */
function recordingDb(): { db: D1Database; statements: { sql: string; args: unknown[] }[] } {
  const statements: { sql: string; args: unknown[] }[] = []
  const db = {
    prepare(sql: string) {
      const entry = { sql, args: [] as unknown[] }
      statements.push(entry)
      const stmt = { bind: (...args: unknown[]) => ((entry.args = args), stmt) }
      return stmt
    },
  } as unknown as D1Database
  return { db, statements }
}

describe('writeStatements', () => {
  it('sets and binds only the columns the updates change', () => {
    const { db, statements } = recordingDb()
    writeStatements(
      db,
      { zoneId: 'z', guard: { version: 1, changeSeq: 0, serial: 1 }, tokenId: 't', now: 'n' },
      [
        update(rec('a', 'x.example', '192.0.2.1'), { content: '192.0.2.9' }),
        update(rec('b', 'y.example', '192.0.2.2'), { ttl: 300 }),
      ]
    )
    const updates = statements.filter((s) => s.sql.startsWith('UPDATE dns_records'))
    expect(updates.map((s) => s.sql.match(/SET (.*)\n/)![1])).toEqual([
      'modified_on = ?2, ttl = u.v ->> 1',
      'modified_on = ?2, content = u.v ->> 1',
    ])
    expect(updates.map((s) => JSON.parse(s.args[2] as string))).toEqual([
      [['b', 300]],
      [['a', '192.0.2.9']],
    ])
  })
})

describe('writeStatements stays inside D1 limits', () => {
  it('splits 100,000 mixed changes with multi-byte content into statements under 100 KB, 100 parameters and 2 MB per value', () => {
    const long = 'ü€𝄞'.repeat(40) // 2-, 3- and 4-byte UTF-8 characters
    const changes: Change[] = []
    for (let i = 0; i < 100_000; i++) {
      const r = rec(`id${i}`, `h${i}.example`, `"${long}${i}"`, {
        type: 'TXT',
        comment: long,
        tags: ['a:b'],
      })
      if (i % 3 === 0) changes.push({ op: 'delete', recordId: r.id, before: r, after: null })
      else if (i % 3 === 1) changes.push(update(r, { content: `"${long}x${i}"` }))
      else changes.push({ op: 'create', recordId: r.id, before: null, after: r })
    }
    const { db, statements } = recordingDb()
    writeStatements(
      db,
      { zoneId: 'z', guard: { version: 1, changeSeq: 0, serial: 1 }, tokenId: 't', now: 'n' },
      changes
    )
    const bytes = (s: string) => new TextEncoder().encode(s).length
    const max = (f: (s: { sql: string; args: unknown[] }) => number) =>
      Math.max(...statements.map(f))
    expect(max((s) => bytes(s.sql))).toBeLessThan(100_000)
    expect(max((s) => s.args.length)).toBeLessThanOrEqual(100)
    const biggestValue = max((s) =>
      Math.max(0, ...s.args.map((a) => (typeof a === 'string' ? bytes(a) : 0)))
    )
    expect(biggestValue).toBeLessThanOrEqual(2_000_000)
    expect(biggestValue).toBeGreaterThan(1_000_000) // chunks are filled, not one per row
    const rowsIn = (pattern: RegExp) =>
      statements
        .filter((s) => pattern.test(s.sql))
        .reduce((n, s) => n + (JSON.parse(s.args.at(-1) as string) as unknown[]).length, 0)
    expect(rowsIn(/^DELETE FROM dns_records/)).toBe(33_334)
    expect(rowsIn(/^UPDATE dns_records/)).toBe(33_333)
    expect(rowsIn(/^INSERT INTO dns_records/)).toBe(33_333)
    expect(rowsIn(/^INSERT INTO change_log/)).toBe(100_000)
    expect(statements.length).toBeGreaterThan(10) // it had to split
  }, 60_000)
})
