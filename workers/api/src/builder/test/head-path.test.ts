/**
 * @module What lies between a one-record change's notification and its announced head: the
 * notification writes nothing to the object's storage before the pass reads D1 (a write would
 * hold that read until it is durable), the safety alarm is armed once the head is out, and the
 * head is appended to the feed once its versioned key is in KV, with no storage write in between
 * (a small head is offered to watching isolates before that key is written); its slot is written
 * after the append (and its ledger entry completed after that).
 */
import { runInDurableObject } from 'cloudflare:test'
import { describe, expect, it } from 'vitest'
import { headKey, headSlot, headVersionKey } from '@edgedns/kv-layout'
import type { FeedAppender } from '@edgedns/zone-feed'
import type { ZoneBuilder } from '../zone-builder.ts'
import { builder, committedSeq, createZone, post, settle, sleep } from './helpers.ts'

/** `kv` with each put noted in `events` as `put <key>`, before or after the put itself. */
function recordingPuts(kv: KVNamespace, events: string[], when: 'before' | 'after'): KVNamespace {
  return {
    get: kv.get.bind(kv),
    list: kv.list.bind(kv),
    delete: kv.delete.bind(kv),
    getWithMetadata: kv.getWithMetadata.bind(kv),
    put: async (key: string, value: string, opts?: KVNamespacePutOptions) => {
      if (when === 'before') events.push(`put ${key}`)
      await kv.put(key, value, opts)
      if (when === 'after') events.push(`put ${key}`)
    },
  } as unknown as KVNamespace
}

describe('the path from notification to announced head', () => {
  it('announces the head once its versioned key is in KV, with no storage write in between, and writes its slot after', async () => {
    const z = await createZone('headpath')
    await post(z.id, { type: 'A', name: 'www', content: '192.0.2.1' })
    await settle(z.id)
    const events: string[] = []
    /** The slot's ledger digest when each head was appended (null: its write not recorded yet). */
    const slotDigestAtAppend = new Map<number, string | null>()
    await runInDurableObject(builder(z.id), (b: ZoneBuilder, state) => {
      const kv = b.io.kv
      const feed = b.io.feed!
      const recordingFeed: FeedAppender = {
        async append(entries) {
          for (const e of entries)
            if (e.op === 'head') {
              events.push(`append ${e.n}`)
              const row = state.storage.sql
                .exec<{ digest: string | null }>(
                  'SELECT digest FROM kv_keys WHERE key = ?1',
                  headKey(z.name, headSlot(e.n))
                )
                .toArray()[0]
              slotDigestAtAppend.set(e.n, row?.digest ?? null)
            }
          return feed.append(entries)
        },
      }
      b.io = {
        ...b.io,
        feed: recordingFeed,
        kv: recordingPuts(kv, events, 'after'),
      }
    })
    await post(z.id, { type: 'A', name: 'new', content: '192.0.2.2' })
    await settle(z.id)
    const heads = [...slotDigestAtAppend.keys()]
    expect(heads.length).toBeGreaterThan(0)
    for (const n of heads) {
      const append = events.indexOf(`append ${n}`)
      const versioned = events.indexOf(`put ${headVersionKey(z.name, z.id, n)}`)
      const slot = events.indexOf(`put ${headKey(z.name, headSlot(n))}`)
      expect(versioned).toBeGreaterThanOrEqual(0)
      expect(versioned).toBeLessThan(append)
      // The slot (readers without the feed) once the entry is out.
      expect(slot).toBeGreaterThan(append)
      // The slot's write is recorded only after its put (the head attempt marked it pending).
      expect(slotDigestAtAppend.get(n)).toBeNull()
    }
    const recorded = await runInDurableObject(builder(z.id), (_b: ZoneBuilder, state) =>
      state.storage.sql
        .exec<{ digest: string | null }>(
          'SELECT digest FROM kv_keys WHERE key = ?1',
          headKey(z.name, headSlot(heads.at(-1)!))
        )
        .one()
    )
    expect(recorded.digest).not.toBeNull()
  })

  it('offers a small head to watching isolates before its versioned key is written, and appends it after', async () => {
    const z = await createZone('offerpath')
    await post(z.id, { type: 'A', name: 'www', content: '192.0.2.1' })
    await settle(z.id)
    const events: string[] = []
    await runInDurableObject(builder(z.id), (b: ZoneBuilder) => {
      const kv = b.io.kv
      const feed = b.io.feed!
      const watchedFeed: FeedAppender = {
        async append(entries) {
          for (const e of entries) if (e.op === 'head') events.push(`append ${e.n}`)
          return feed.append(entries)
        },
        offer(heads) {
          for (const h of heads) {
            expect(h).toMatchObject({ zone: z.name, id: z.id })
            expect(h.head.length).toBeGreaterThan(0)
            events.push(`offer ${h.n}`)
          }
          return Promise.resolve(true)
        },
      }
      b.io = {
        ...b.io,
        feed: watchedFeed,
        kv: recordingPuts(kv, events, 'before'),
      }
    })
    await post(z.id, { type: 'A', name: 'new', content: '192.0.2.2' })
    await settle(z.id)
    const offered = events.filter((e) => e.startsWith('offer ')).map((e) => Number(e.slice(6)))
    expect(offered.length).toBeGreaterThan(0)
    for (const n of offered) {
      const offer = events.indexOf(`offer ${n}`)
      const versioned = events.indexOf(`put ${headVersionKey(z.name, z.id, n)}`)
      const append = events.indexOf(`append ${n}`)
      expect(offer).toBeLessThan(versioned)
      expect(versioned).toBeLessThan(append)
    }
  })

  it('writes nothing before the pass reads D1, and arms the safety alarm once the head is out', async () => {
    const z = await createZone('nowrite')
    await post(z.id, { type: 'A', name: 'www', content: '192.0.2.1' })
    await settle(z.id)
    const stub = builder(z.id)
    const storedState = (): Promise<unknown> =>
      runInDurableObject(stub, (_b: ZoneBuilder, state) =>
        JSON.stringify(state.storage.kv.get('state'))
      )
    const alarm = (): Promise<number | null> =>
      runInDurableObject(stub, (_b: ZoneBuilder, state) => state.storage.getAlarm())
    const before = { state: await storedState(), alarm: await alarm() }
    // What storage holds when each D1 batch goes out: the pass's read, then its report.
    const atBatch: { state: unknown; alarm: number | null }[] = []
    await runInDurableObject(stub, (b: ZoneBuilder, state) => {
      const db = b.io.db
      b.io = {
        ...b.io,
        db: {
          prepare: db.prepare.bind(db),
          exec: db.exec.bind(db),
          batch: async (stmts: D1PreparedStatement[]) => {
            atBatch.push({
              state: JSON.stringify(state.storage.kv.get('state')),
              alarm: await state.storage.getAlarm(),
            })
            return db.batch(stmts)
          },
        } as unknown as D1Database,
      }
    })
    const startedAt = Date.now()
    await post(z.id, { type: 'A', name: 'new', content: '192.0.2.2' })
    const seq = await committedSeq(z.id)
    // No alarm is run meanwhile (settle would run it at once): wait for the pass's report.
    for (let i = 0; i < 2000 && atBatch.length < 2; i++) await sleep(2)
    expect(atBatch[0]).toEqual(before)
    expect((await stub.status()).cursor).toBeGreaterThanOrEqual(seq)
    // By the report after the head, the safety alarm is armed.
    const armed = atBatch[1]!.alarm
    expect(armed).toBeGreaterThanOrEqual(startedAt)
    expect(armed).toBeLessThanOrEqual(Date.now() + 30_000)
    await settle(z.id)
  })
})
