/**
 * A catalog transfer is of one version of the catalog: its members are read with its serial in one
 * D1 batch, so membership changes landing between its reads (as on a busy account) never break it
 * off nor put new members under an old serial; a change between the catalog's row and its members
 * gets the answer at the newer serial; a catalog larger than a batch is read in batches, each with
 * the serial; a joined read the SQLite refuses (no `ORDER BY` in aggregates) or a joined string
 * that does not split is read as rows, and any other error of the joined read fails the transfer.
 */
import { env } from 'cloudflare:workers'
import { describe, expect, it, vi } from 'vitest'
import { BUNDLED_MIGRATIONS } from '../../workers/api/src/db/bundled-migrations.ts'
import { CATALOG_SIZES, readMemberBatch } from '../../workers/api/src/transfers/catalog-members.ts'
import { catalogNamed, catalogTransfer } from '../../workers/api/src/transfers/catalog-zone.ts'
import { unique } from './secondary-dns-helpers.ts'
import { account, axfrFrom, ok, ptrs, serialOf, zoneIn } from './catalog-helpers.ts'

/** Whether a statement reads catalog members. */
const readsMembers = (sql: string): boolean => sql.includes('JOIN zone_transfers_outgoing AS o')

/**
 * The test D1 with `around` run before and after each read of catalog members (a statement, or a
 * batch holding one), numbered from 1; a batch's results go through `results`.
 */
function hookedDb(
  around: (when: 'before' | 'after', read: number) => Promise<unknown> | void,
  results: (r: D1Result[]) => D1Result[] = (r) => r
): D1Database {
  let reads = 0
  const real = new WeakMap<object, D1PreparedStatement>()
  const hooked = async <T>(run: () => Promise<T>): Promise<T> => {
    const read = ++reads
    await around('before', read)
    const out = await run()
    await around('after', read)
    return out
  }
  const wrap = (stmt: D1PreparedStatement): D1PreparedStatement => {
    const proxy = new Proxy(stmt, {
      get(target, prop) {
        const value = Reflect.get(target, prop, target) as unknown
        if (typeof value !== 'function') return value
        if (prop === 'bind') return (...args: unknown[]) => wrap(target.bind(...args))
        const call = (...a: unknown[]) => (value as (...b: unknown[]) => unknown).apply(target, a)
        return (...a: unknown[]) => hooked(async () => call(...a))
      },
    })
    real.set(proxy, stmt)
    return proxy
  }
  return new Proxy(env.DB, {
    get(target, prop) {
      if (prop === 'prepare')
        return (sql: string) =>
          readsMembers(sql) ? wrap(target.prepare(sql)) : target.prepare(sql)
      if (prop === 'batch')
        return async (statements: D1PreparedStatement[]) => {
          const run = () => target.batch(statements.map((s) => real.get(s) ?? s))
          return statements.some((s) => real.has(s)) ? results(await hooked(run)) : run()
        }
      const value = Reflect.get(target, prop, target) as unknown
      return typeof value === 'function' ? value.bind(target) : value
    },
  })
}

/** A membership change: zone `id`'s outgoing transfers enabled or disabled (its serial moves). */
const toggle = (id: string) =>
  env.DB.prepare('UPDATE zone_transfers_outgoing SET enabled = 1 - enabled WHERE zone_id = ?1')
    .bind(id)
    .run()

/** What `run` gave, and what it warned of (`console.warn`, each call's arguments joined). */
async function warnedDuring<T>(run: () => Promise<T>): Promise<{ out: T; warned: string[] }> {
  const warn = vi.spyOn(console, 'warn').mockImplementation(() => {})
  try {
    const out = await run()
    return { out, warned: warn.mock.calls.map((call) => call.map(String).join(' ')) }
  } finally {
    warn.mockRestore()
  }
}

/** An account's catalog with `count` members and one more that the tests switch in and out. */
async function catalogWith(count: number) {
  const a = await account()
  const name = `${unique('catalog')}.example.net`
  await ok('PUT', `${a.base}/catalog`, { name, peers: [a.peer] })
  const members = []
  for (let i = 0; i < count; i++) members.push(await zoneIn(a.id, true, a.peer))
  const toggled = await zoneIn(a.id, true, a.peer)
  const serial = async () => (await ok('GET', `${a.base}/catalog`)).soa_serial as number
  const ptrsOf = (zones: { id: string; name: string }[]) =>
    zones
      .map((z): [string, string] => [`${z.id}.zones.${name}.`, `${z.name}.`])
      .sort((x, y) => (x[1] < y[1] ? -1 : 1))
  return { name, members, toggled, serial, ptrsOf }
}

describe('catalog transfers read one version of the catalog', () => {
  it('complete while membership changes land between their reads of members', async () => {
    const c = await catalogWith(5)
    const before = await c.serial()
    // After each read of members, the extra zone leaves or joins: a change every read.
    const db = hookedDb((when) => (when === 'after' ? toggle(c.toggled.id) : undefined))
    const { records, completed } = await axfrFrom(c.name, { ...env, DB: db }, 2)
    expect(completed).toBe(true)
    // The members as they were read, under the serial they were read with.
    expect(serialOf(records)).toBe(before)
    expect(serialOf(records.slice(-1))).toBe(before)
    expect(ptrs(records)).toEqual(c.ptrsOf([...c.members, c.toggled]))
    expect(await c.serial()).toBeGreaterThan(before)
  })

  it('answer at the newer serial when a change lands between the catalog row and its members', async () => {
    const c = await catalogWith(3)
    const before = await c.serial()
    const db = hookedDb((when, read) =>
      when === 'before' && read === 1 ? toggle(c.toggled.id) : undefined
    )
    const { records, completed } = await axfrFrom(c.name, { ...env, DB: db }, 2)
    expect(completed).toBe(true)
    const after = await c.serial()
    expect(after).toBeGreaterThan(before)
    expect(serialOf(records)).toBe(after)
    expect(serialOf(records.slice(-1))).toBe(after)
    expect(ptrs(records)).toEqual(c.ptrsOf(c.members))
  })

  it('read a catalog larger than a batch in batches; a change between them breaks it off', async () => {
    const c = await catalogWith(4)
    const served = (await catalogNamed(env as never, c.name))!
    const read = async (db: D1Database) => {
      const { zone } = catalogTransfer({ ...served, db }, { chunk: 2, batch: 3 })
      const out = []
      for await (const rr of zone.records() as AsyncIterable<{ type: number; rdata: string }>)
        if (rr.type === 12) out.push(rr.rdata)
      return out
    }
    let reads = 0
    const counted = hookedDb((when) => void (when === 'after' && reads++))
    const all = c.ptrsOf([...c.members, c.toggled]).map(([, target]) => target)
    expect(await read(counted)).toEqual(all)
    expect(reads).toBe(2)
    const changing = hookedDb((when, n) =>
      when === 'after' && n === 1 ? toggle(c.toggled.id) : undefined
    )
    await expect(read(changing)).rejects.toThrow(/changed during its transfer/)
  })

  it('read members as rows when a joined string does not split', async () => {
    const c = await catalogWith(3)
    // The joined strings come back one member short (as when a field holds the separator).
    const db = hookedDb(
      () => undefined,
      (results) =>
        results.map((r) => ({
          ...r,
          results: (r.results as Record<string, unknown>[]).map((row) =>
            'page' in row ? { ...row, records: (row.records as number) - 1 } : row
          ),
        }))
    )
    const { out, warned } = await warnedDuring(() => axfrFrom(c.name, { ...env, DB: db }, 2))
    expect(out.completed).toBe(true)
    expect(ptrs(out.records)).toEqual(c.ptrsOf([...c.members, c.toggled]))
    expect(warned).toContainEqual(
      expect.stringMatching(/joined string does not split; read as rows/)
    )
  })

  it('read members as rows, with a warning, when the SQLite refuses the joined read (no ORDER BY in aggregates)', async () => {
    const c = await catalogWith(3)
    // The joined members' statement refused as an SQLite before 3.44 refuses its `ORDER BY` inside
    // group_concat: `near "ORDER": syntax error` (here given by a comma before it).
    const db = new Proxy(env.DB, {
      get(target, prop) {
        if (prop === 'prepare')
          return (sql: string) =>
            target.prepare(sql.replace('char(127) ORDER BY', 'char(127), ORDER BY'))
        const value = Reflect.get(target, prop, target) as unknown
        return typeof value === 'function' ? value.bind(target) : value
      },
    })
    const { out, warned } = await warnedDuring(() => axfrFrom(c.name, { ...env, DB: db }, 2))
    expect(out.completed).toBe(true)
    expect(ptrs(out.records)).toEqual(c.ptrsOf([...c.members, c.toggled]))
    expect(warned).toContainEqual(
      expect.stringMatching(/joined read is refused; read as rows .*near "ORDER": syntax error/)
    )
  })

  it('fail on any other error of the joined read (a transient D1 error), not read as rows', async () => {
    const c = await catalogWith(3)
    const lost = 'D1_ERROR: Network connection lost.'
    let reads = 0
    const db = hookedDb((when) => {
      if (when === 'before' && ++reads === 1) throw new Error(lost)
    })
    const served = (await catalogNamed(env as never, c.name))!
    const { warned } = await warnedDuring(() =>
      expect(readMemberBatch(db, served.row, ['', ''], CATALOG_SIZES)).rejects.toThrow(lost)
    )
    // No fallback to rows (warnings of other work, such as a NOTIFY round still retrying, aside).
    expect(warned.filter((w) => w.startsWith('catalog members:'))).toEqual([])
    expect(reads).toBe(1)
    // Through a transfer: its records break off before any member (the secondary asks again).
    reads = 0
    const sent: string[] = []
    const transfer = async () => {
      const { zone } = catalogTransfer({ ...served, db })
      for await (const rr of zone.records() as AsyncIterable<{ type: number; rdata: string }>)
        if (rr.type === 12) sent.push(rr.rdata)
    }
    await expect(transfer()).rejects.toThrow(lost)
    expect(sent).toEqual([])
    expect(reads).toBe(1)
  })

  it('move at migration 0023 for accounts whose catalog listed a zone that is not primary', async () => {
    const c = await catalogWith(1)
    const before = await c.serial()
    // As a zone made internal before 0022 was left: listed, its outgoing transfers still enabled
    // (the type changed without the trigger).
    await env.DB.batch([
      env.DB.prepare('DROP TRIGGER catalog_serial_on_zone_type'),
      env.DB.prepare("UPDATE zones SET type = 'internal' WHERE id = ?1").bind(c.toggled.id),
    ])
    try {
      expect(await c.serial()).toBe(before)
      const statements = BUNDLED_MIGRATIONS.find(
        (m) => m.name === '0023_incoming_copy_backfill.sql'
      )!.statements
      await env.DB.prepare(statements[1]!).run()
      expect(await c.serial()).toBeGreaterThan(before)
    } finally {
      const trigger = BUNDLED_MIGRATIONS.find((m) => m.name === '0022_catalog_primary_zones.sql')!
      await env.DB.batch(trigger.statements.map((sql) => env.DB.prepare(sql)))
    }
  })
})
