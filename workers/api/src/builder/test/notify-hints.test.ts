/**
 * @module A notification that describes its change lets the pass read the change log and the
 * touched names' rows in one D1 round trip; a small change's notification carries that read
 * itself, made in the commit's transaction, and the pass reads nothing from D1 before its head.
 * The log stays the source of truth (a hint that does not cover what the log says is ignored, a
 * snapshot that does not hold the whole change is not used), and a step that consumed every
 * notified change reads the log no more.
 */
import { describe, expect, it } from 'vitest'
import { HintChain } from '../hints.ts'
import { SQL, type PassInput } from '../queries.ts'
import type { BuilderStatus } from '../zone-builder.ts'
import {
  api,
  builder,
  committedSeq,
  converge,
  createZone,
  kvMeta,
  kvNode,
  post,
  settle,
  sleep,
  tweak,
} from './helpers.ts'

/** Waits (without running alarms) until the builder has built and folded up to `seq`. */
async function builtTo(zoneId: string, seq: number): Promise<BuilderStatus> {
  for (let i = 0; i < 2000; i++) {
    const s = (await builder(zoneId).status()) as unknown as BuilderStatus
    if (s.cursor >= seq && s.dirtyBuckets === 0 && s.lastError === null) return s
    await sleep(2)
  }
  throw new Error(`zone ${zoneId} not built to ${seq}`)
}

/** A KV namespace whose puts fail (reads and the rest pass through). */
function failingPuts(kv: KVNamespace): KVNamespace {
  return new Proxy(kv, {
    get(target, prop) {
      if (prop === 'put') return () => Promise.reject(new Error('injected KV put failure'))
      const value = Reflect.get(target, prop) as unknown
      return typeof value === 'function' ? (value as () => unknown).bind(target) : value
    },
  })
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

/** A snapshot whose log holds the given sequences, read at the last of them. */
function snapshotWith(seqs: number[]): PassInput {
  return {
    zone: {
      id: 'z',
      name: 'example.com',
      change_seq: seqs[seqs.length - 1] ?? 0,
    } as unknown as PassInput['zone'],
    log: seqs.map((seq) => ({ seq, op: 'create', old_name: null, new_name: 'a.example.com' })),
    names: { rows: new Map(), hasDescendants: new Set(), names: new Set(['a.example.com']) },
  }
}

describe('HintChain snapshots', () => {
  it('gives the snapshot of the hint at the cursor when it holds the whole change', () => {
    const chain = new HintChain()
    chain.observed(4)
    const snap = snapshotWith([5, 6])
    chain.add({ after: 4, upTo: 6, names: ['a.example.com'], snapshot: snap })
    expect(chain.snapshotAt(4)).toBe(snap)
    expect(chain.snapshotAt(3)).toBeNull()
    expect(chain.snapshotAt(5)).toBeNull()
  })

  it('does not use a snapshot that misses a log row, has a gap, or has no zone', () => {
    const chain = new HintChain()
    chain.observed(4)
    chain.add({ after: 4, upTo: 6, names: ['a.example.com'], snapshot: snapshotWith([5]) })
    expect(chain.snapshotAt(4)).toBeNull()
    chain.add({ after: 4, upTo: 6, names: ['a.example.com'], snapshot: snapshotWith([5, 7]) })
    expect(chain.snapshotAt(4)).toBeNull()
    chain.add({
      after: 4,
      upTo: 6,
      names: ['a.example.com'],
      snapshot: { ...snapshotWith([5, 6]), zone: null },
    })
    expect(chain.snapshotAt(4)).toBeNull()
    chain.add({ after: 4, upTo: 6, names: ['a.example.com'] })
    expect(chain.snapshotAt(4)).toBeNull()
  })

  it('does not use a snapshot older than rows already read, nor any before a first read', () => {
    const chain = new HintChain()
    const snap = snapshotWith([5, 6])
    chain.add({ after: 4, upTo: 6, names: ['a.example.com'], snapshot: snap })
    // A restarted object knows nothing of what its mirror holds.
    expect(chain.snapshotAt(4)).toBeNull()
    // A D1 read (a pass cut short, say) saw sequence 7: the snapshot at 6 would go back in time.
    chain.observed(7)
    expect(chain.snapshotAt(4)).toBeNull()
    chain.observed(6)
    expect(chain.snapshotAt(4)).toBe(snap)
    // A read without a zone row (a second read, a full build): unknown again.
    chain.observedUnknown()
    expect(chain.snapshotAt(4)).toBeNull()
  })

  it('keeps snapshots on the newest hints only', () => {
    const chain = new HintChain()
    chain.observed(0)
    for (let after = 0; after < 12; after++)
      chain.add({
        after,
        upTo: after + 1,
        names: ['a.example.com'],
        snapshot: snapshotWith([after + 1]),
      })
    expect(chain.snapshotAt(0)).toBeNull()
    expect(chain.snapshotAt(11)).not.toBeNull()
    expect(chain.snapshotAt(4)).not.toBeNull()
    expect(chain.snapshotAt(3)).toBeNull()
  })
})

describe('notifications that carry their change', () => {
  it('a one-record change through the API reads nothing from D1 before its head, ancestors included', async () => {
    const z = await createZone('hint')
    await post(z.id, { type: 'A', name: 'www', content: '192.0.2.1' })
    await settle(z.id)
    const counter = { log: 0 }
    await tweak(z.id, (b) => (b.io = { ...b.io, db: logCountingDb(b.io.db, counter) }))
    await post(z.id, { type: 'A', name: 'deep.er', content: '192.0.2.2' })
    const status = await builtTo(z.id, await committedSeq(z.id))
    expect(status.lastPass).toMatchObject({ kind: 'per-record', changes: 1, names: 2 })
    expect(status.lastPass?.readTrips).toBe(0)
    expect(counter.log).toBe(0)
    expect(await kvNode(z.name, `deep.er.${z.name}`)).toMatchObject({
      sets: { A: { rdata: ['192.0.2.2'] } },
    })
    expect(await kvNode(z.name, `er.${z.name}`)).toEqual({ v: 1, sets: {} })

    // A rename: the old and the new name come with the notification.
    const rec = (await api('GET', `/zones/${z.id}/dns_records?name=www.${z.name}`)).body.result[0]
    await api('PATCH', `/zones/${z.id}/dns_records/${rec.id}`, { name: 'web' })
    const renamed = await builtTo(z.id, await committedSeq(z.id))
    expect(renamed.lastPass).toMatchObject({ names: 2, readTrips: 0 })
    expect(await kvNode(z.name, `www.${z.name}`)).toBeNull()
    expect(await kvNode(z.name, `web.${z.name}`)).not.toBeNull()
    expect((await converge(z.id)).differences).toEqual([])
  })

  it('an apex change carries the apex rows and the zone row in its snapshot', async () => {
    const z = await createZone('hint')
    // The first pass after the zone's full build reads D1 (see below); this one is that pass.
    await post(z.id, { type: 'A', name: 'www', content: '192.0.2.1' })
    await settle(z.id)
    await post(z.id, { type: 'TXT', name: '@', content: '"v=spf1 -all"' })
    const status = await builtTo(z.id, await committedSeq(z.id))
    expect(status.lastPass?.readTrips).toBe(0)
    await settle(z.id)
    expect((await kvMeta(z.name))!.apex.sets.TXT?.rdata).toEqual(['"v=spf1 -all"'])
  })

  it('a hint that does not cover what the log says is ignored: the log decides', async () => {
    const z = await createZone('hint')
    await post(z.id, { type: 'A', name: 'www', content: '192.0.2.1' })
    await settle(z.id)
    const before = await committedSeq(z.id)
    // Hold the builder: the API's own notification fails at its head write (the cursor stays),
    // then a wrong hint for the same sequence, without a snapshot, replaces the API's.
    let original!: KVNamespace
    await tweak(z.id, (b) => {
      original = b.io.kv
      b.io = { ...b.io, kv: failingPuts(original) }
    })
    await post(z.id, { type: 'A', name: 'real', content: '192.0.2.3' })
    while (((await builder(z.id).status()) as unknown as BuilderStatus).failures === 0)
      await sleep(2)
    await tweak(z.id, (b) => (b.io = { ...b.io, kv: original }))
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
    // The second read had no zone row: the next change's snapshot is not trusted, D1 is read.
    await post(z.id, { type: 'A', name: 'later', content: '192.0.2.7' })
    const later = await builtTo(z.id, await committedSeq(z.id))
    expect(later.lastPass?.readTrips).toBe(1)
    expect((await converge(z.id)).differences).toEqual([])
  })

  it('a step whose pass consumed every notified change reads the log no more', async () => {
    const z = await createZone('hint')
    await post(z.id, { type: 'A', name: 'www', content: '192.0.2.1' })
    await settle(z.id)
    const counter = { log: 0 }
    await tweak(z.id, (b) => (b.io = { ...b.io, db: logCountingDb(b.io.db, counter) }))
    // More changes than a snapshot covers: the pass reads the log once.
    const posts = Array.from({ length: 101 }, (_, i) => ({
      type: 'A',
      name: `n${i}`,
      content: '192.0.2.4',
    }))
    expect((await api('POST', `/zones/${z.id}/dns_records/batch`, { posts })).status).toBe(200)
    const status = await builtTo(z.id, await committedSeq(z.id))
    expect(status.lastPass?.readTrips).toBeGreaterThanOrEqual(1)
    // Folding its buckets afterwards read nothing more.
    expect(counter.log).toBe(1)
    expect(status.alarm).toBeNull()
    expect((await converge(z.id)).differences).toEqual([])
  })
})
