/**
 * @module A notification that describes its change lets the pass read the change log and the
 * touched names' rows in one D1 round trip; the log stays the source of truth (a hint that does
 * not cover what the log says is ignored), and a step that consumed every notified change reads
 * the log no more.
 */
import { describe, expect, it } from 'vitest'
import { HintChain } from '../hints.ts'
import { SQL } from '../queries.ts'
import type { BuilderStatus } from '../zone-builder.ts'
import {
  api,
  builder,
  committedSeq,
  converge,
  createZone,
  failingDb,
  kvMeta,
  kvNode,
  post,
  settle,
  sleep,
  tweak,
} from './helpers.ts'

/** Waits (without running alarms) until the builder has built and flushed up to `seq`. */
async function builtTo(zoneId: string, seq: number): Promise<BuilderStatus> {
  for (let i = 0; i < 2000; i++) {
    const s = (await builder(zoneId).status()) as unknown as BuilderStatus
    if (s.cursor >= seq && s.dirtyBuckets === 0 && s.lastError === null) return s
    await sleep(2)
  }
  throw new Error(`zone ${zoneId} not built to ${seq}`)
}

/** A D1 database that counts how often the change log is queried. */
function logCountingDb(db: D1Database, counter: { log: number }): D1Database {
  return {
    prepare: (sql: string) => {
      if (sql === SQL.log) counter.log++
      return db.prepare(sql)
    },
    batch: db.batch.bind(db),
    exec: db.exec.bind(db),
    dump: db.dump?.bind(db),
    withSession: db.withSession?.bind(db),
  } as unknown as D1Database
}

/** Counts D1 round trips: batches and statements run on their own. */
function tripCountingDb(db: D1Database, counter: { trips: number }): D1Database {
  const counted = (stmt: D1PreparedStatement): D1PreparedStatement => {
    const bind = stmt.bind.bind(stmt)
    stmt.bind = (...values: unknown[]) => counted(bind(...values))
    for (const run of ['all', 'first', 'run', 'raw'] as const) {
      const original = (stmt[run] as (...a: unknown[]) => Promise<unknown>).bind(stmt)
      ;(stmt as unknown as Record<string, unknown>)[run] = (...a: unknown[]) => {
        counter.trips++
        return original(...a)
      }
    }
    return stmt
  }
  return {
    prepare: (sql: string) => counted(db.prepare(sql)),
    batch: (stmts: D1PreparedStatement[]) => {
      counter.trips++
      return db.batch(stmts)
    },
    exec: db.exec.bind(db),
    dump: db.dump?.bind(db),
    withSession: db.withSession?.bind(db),
  } as unknown as D1Database
}

describe('HintChain', () => {
  const apex = 'example.com'

  it('chains hints from the cursor and expands names to their ancestors below the apex', () => {
    const chain = new HintChain()
    chain.add({ after: 4, upTo: 5, names: ['a.b.example.com'] })
    chain.add({ after: 5, upTo: 7, names: ['c.example.com', 'example.com', 'other.net'] })
    expect(chain.expectedNames(4, apex)?.sort()).toEqual([
      'a.b.example.com',
      'b.example.com',
      'c.example.com',
      'example.com',
    ])
    expect(chain.expectedNames(5, apex)?.sort()).toEqual(['c.example.com', 'example.com'])
  })

  it('says nothing when no hint starts at the cursor, and forgets hints the cursor passed', () => {
    const chain = new HintChain()
    chain.add({ after: 4, upTo: 5, names: ['a.example.com'] })
    chain.add({ after: 6, upTo: 7, names: ['b.example.com'] })
    expect(chain.expectedNames(3, apex)).toBeNull()
    // 5 → 6 is missing: the chain stops after the first hint.
    expect(chain.expectedNames(4, apex)).toEqual(['a.example.com'])
    expect(chain.expectedNames(7, apex)).toBeNull()
    expect(chain.size).toBe(0)
  })

  it('ignores malformed hints', () => {
    const chain = new HintChain()
    chain.add({ after: 5, upTo: 5, names: ['a.example.com'] })
    chain.add({ after: -1, upTo: 2, names: [] })
    chain.add({ after: 1, upTo: 2, names: Array.from({ length: 1000 }, (_, i) => `n${i}.x`) })
    chain.add({ after: 1, upTo: 2, names: [42 as unknown as string] })
    expect(chain.size).toBe(0)
  })
})

describe('notifications that carry their change', () => {
  it('a one-record change through the API is read in one round trip, ancestors included', async () => {
    const z = await createZone('hint')
    await post(z.id, { type: 'A', name: 'www', content: '192.0.2.1' })
    await settle(z.id)
    await post(z.id, { type: 'A', name: 'deep.er', content: '192.0.2.2' })
    const status = await builtTo(z.id, await committedSeq(z.id))
    expect(status.lastPass).toMatchObject({ kind: 'per-record', changes: 1, names: 2 })
    expect(status.lastPass?.readTrips).toBe(1)
    expect(await kvNode(z.name, `deep.er.${z.name}`)).toMatchObject({
      sets: { A: { rdata: ['192.0.2.2'] } },
    })
    expect(await kvNode(z.name, `er.${z.name}`)).toEqual({ v: 1, sets: {} })

    // A rename: the old and the new name come with the notification.
    const rec = (await api('GET', `/zones/${z.id}/dns_records?name=www.${z.name}`)).body.result[0]
    await api('PATCH', `/zones/${z.id}/dns_records/${rec.id}`, { name: 'web' })
    const renamed = await builtTo(z.id, await committedSeq(z.id))
    expect(renamed.lastPass).toMatchObject({ names: 2, readTrips: 1 })
    expect(await kvNode(z.name, `www.${z.name}`)).toBeNull()
    expect(await kvNode(z.name, `web.${z.name}`)).not.toBeNull()
    expect((await converge(z.id)).differences).toEqual([])
  })

  it('an apex change reads the apex rows and the subzones in the same round trip', async () => {
    const z = await createZone('hint')
    await settle(z.id)
    const counter = { trips: 0 }
    const beforeHead: number[] = []
    await tweak(z.id, (b) => {
      const feed = b.io.feed!
      b.io = {
        ...b.io,
        db: tripCountingDb(b.io.db, counter),
        feed: {
          async append(entries) {
            beforeHead.push(counter.trips)
            return feed.append(entries)
          },
        },
      }
    })
    await post(z.id, { type: 'TXT', name: '@', content: '"v=spf1 -all"' })
    const status = await builtTo(z.id, await committedSeq(z.id))
    expect(status.lastPass?.readTrips).toBe(1)
    // D1 round trips of the step before its head reached the feed.
    expect(beforeHead[0]).toBe(1)
    await settle(z.id)
    expect((await kvMeta(z.name))!.apex.sets.TXT?.rdata).toEqual(['"v=spf1 -all"'])
  })

  it('a hint that does not cover what the log says is ignored: the log decides', async () => {
    const z = await createZone('hint')
    await post(z.id, { type: 'A', name: 'www', content: '192.0.2.1' })
    await settle(z.id)
    const before = await committedSeq(z.id)
    // Hold the builder: the API's own notification fails (the cursor stays), then a wrong hint
    // for the same sequence replaces the API's.
    let original!: D1Database
    await tweak(z.id, (b) => {
      original = b.io.db
      b.io = {
        ...b.io,
        db: failingDb(original, new Set(Array.from({ length: 50 }, (_, i) => i + 1))),
      }
    })
    await post(z.id, { type: 'A', name: 'real', content: '192.0.2.3' })
    while (((await builder(z.id).status()) as unknown as BuilderStatus).failures === 0)
      await sleep(2)
    await tweak(z.id, (b) => (b.io = { ...b.io, db: original }))
    await builder(z.id).notify(z.id, before + 1, {
      after: before,
      upTo: before + 1,
      names: [`decoy.${z.name}`],
    })
    const status = await builtTo(z.id, before + 1)
    expect(status.lastPass).toMatchObject({ changes: 1, names: 1, readTrips: 2 })
    expect(await kvNode(z.name, `real.${z.name}`)).toMatchObject({
      sets: { A: { rdata: ['192.0.2.3'] } },
    })
    expect(await kvNode(z.name, `decoy.${z.name}`)).toBeNull()
    expect((await converge(z.id)).differences).toEqual([])
  })

  it('a step whose pass consumed every notified change reads the log once', async () => {
    const z = await createZone('hint')
    await post(z.id, { type: 'A', name: 'www', content: '192.0.2.1' })
    await settle(z.id)
    const counter = { log: 0 }
    await tweak(z.id, (b) => (b.io = { ...b.io, db: logCountingDb(b.io.db, counter) }))
    await post(z.id, { type: 'A', name: 'one', content: '192.0.2.4' })
    const status = await builtTo(z.id, await committedSeq(z.id))
    expect(status.lastPass?.readTrips).toBe(1)
    // The pass read the log once; flushing its bucket afterwards read nothing more.
    expect(counter.log).toBe(1)
    // No alarm but the one deleting superseded bucket versions once their grace period is over.
    expect(status.retiredKeys).toBeGreaterThan(0)
    expect(status.alarm).toBeGreaterThanOrEqual(Date.now() + 60_000)
  })
})
