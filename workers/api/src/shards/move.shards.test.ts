/**
 * Moving an account between D1 shards in the background while clients keep writing: every
 * acknowledged change is in the destination afterwards, the change log has no gap, the source
 * holds no live copy, KV is built from the destination, and a step cut short resumes.
 */
import { env } from 'cloudflare:workers'
import { describe, expect, it } from 'vitest'
import { api, expectError } from '../../../../test/api/helpers.ts'
import { runDurableObjectAlarm } from 'cloudflare:test'
import { builder, kvNode } from '../builder/test/helpers.ts'
import { awaitMove, moveAndWait } from '../../../../test/api/shard-move.ts'
import type { MoveJob } from './move-job.ts'
import { moveStep, planMove } from './move.ts'
import { shardMoveResponse, shardPlacementResponse } from '../openapi/responses.ts'

const shard = (i: number): D1Database =>
  i === 0 ? env.DB : (env as unknown as Record<string, D1Database>)[`DB_${i}`]!

/** The shards holding any row of the zone. */
async function shardsWithRow(zoneId: string): Promise<number[]> {
  const held: number[] = []
  for (const i of [0, 1, 2])
    if (await shard(i).prepare('SELECT 1 AS x FROM zones WHERE id = ?1').bind(zoneId).first())
      held.push(i)
  return held
}

const pause = (ms: number) => new Promise((r) => setTimeout(r, ms))

/** Posts one TXT record until it is acknowledged, retrying the retryable answers (move, conflict). */
async function writeUntilAcknowledged(zoneId: string, name: string, content: string) {
  for (let attempt = 0; attempt < 500; attempt++) {
    const res = await api('POST', `/zones/${zoneId}/dns_records`, { type: 'TXT', name, content })
    if (res.status === 200) return { retried: attempt }
    if (res.status !== 503 && res.status !== 409)
      throw new Error(`write refused: ${res.status} ${JSON.stringify(res.body)}`)
    await pause(1)
  }
  throw new Error(`write of ${name} never acknowledged`)
}

describe('moving an account between shards', () => {
  it(
    'loses no change made before, during or after the move, and KV ends up built',
    { timeout: 60_000 },
    async () => {
      const account = (await api('POST', '/accounts', { name: 'mover' })).body.result.id as string
      const created = await api('POST', '/zones', {
        name: 'mover.example',
        account: { id: account },
      })
      expect(created.status).toBe(200)
      const zoneId = created.body.result.id as string
      const from = (await api('GET', `/accounts/${account}/shard`)).body.result.shard as number
      const to = (from + 1) % 3

      const acknowledged: string[] = []
      let retries = 0
      let moving = false
      let duringMove = 0
      const writer = async (w: number, count: number) => {
        for (let i = 0; i < count; i++) {
          const name = `w${w}-${i}.mover.example`
          const r = await writeUntilAcknowledged(zoneId, name, `v${w}-${i}`)
          retries += r.retried
          if (moving) duringMove++
          acknowledged.push(name)
        }
      }
      // Before: a few acknowledged writes. During: four writers race the move. After: more writes.
      await writer(9, 5)
      const writers = Promise.all([0, 1, 2, 3].map((w) => writer(w, 15)))
      await pause(5)
      moving = true
      const started = await api('PUT', `/accounts/${account}/shard`, { shard: to })
      expect(started.status).toBe(202)
      expect(started.body.result).toMatchObject({ from, shard: to, status: 'running' })
      const done = await awaitMove(account)
      moving = false
      // The move ran in many steps while the writers kept being acknowledged on the source.
      expect(duringMove).toBeGreaterThan(0)
      expect(done).toMatchObject({ from, shard: to, zones: 1, status: 'done', epoch: 1 })
      expect(done.steps).toBeGreaterThan(1)
      // The answers are what the OpenAPI document describes, field for field.
      expect(() => shardMoveResponse.strict().parse(started.body.result)).not.toThrow()
      const placement = (await api('GET', `/accounts/${account}/shard`)).body.result
      expect(() => shardPlacementResponse.strict().parse(placement)).not.toThrow()
      await writers
      await writer(8, 5)

      // The directory and the rows agree: the account lives on the destination only.
      expect((await api('GET', `/accounts/${account}/shard`)).body.result).toMatchObject({
        shard: to,
        state: 'active',
        epoch: 1,
      })
      const live = (i: number) =>
        shard(i)
          .prepare("SELECT change_seq FROM zones WHERE id = ?1 AND status = 'active'")
          .bind(zoneId)
          .first<{ change_seq: number }>()
      expect(await live(from)).toBeNull()
      const zone = (await live(to))!
      const names = await shard(to)
        .prepare("SELECT name FROM dns_records WHERE zone_id = ?1 AND type = 'TXT'")
        .bind(zoneId)
        .all<{ name: string }>()
      expect(names.results.map((r) => r.name).sort()).toEqual([...acknowledged].sort())
      expect(acknowledged).toHaveLength(70)
      // The change log came along whole: every sequence from 1 to the zone's, once.
      const log = await shard(to)
        .prepare(
          'SELECT count(*) AS n, min(seq) AS lo, max(seq) AS hi FROM change_log WHERE zone_id = ?1'
        )
        .bind(zoneId)
        .first<{ n: number; lo: number; hi: number }>()
      expect(log).toEqual({ n: zone.change_seq, lo: 1, hi: zone.change_seq })
      expect(
        (await shard(from)
          .prepare('SELECT count(*) AS n FROM change_log WHERE zone_id = ?1')
          .bind(zoneId)
          .first<{ n: number }>())!.n
      ).toBe(0)

      // KV is built from the destination, and holds every acknowledged name.
      const stub = builder(zoneId)
      for (let i = 0; i < 2000; i++) {
        const st = await stub.status()
        if (st.cursor >= zone.change_seq && st.dirtyBuckets === 0 && st.lastError === null) break
        if (!(await runDurableObjectAlarm(stub))) await pause(2)
      }
      expect((await stub.status()).cursor).toBe(zone.change_seq)
      const check = await api('GET', `/zones/${zoneId}/propagation/check`)
      expect(check.body.result).toMatchObject({ converged: true, difference_count: 0 })
      for (const name of acknowledged) expect(await kvNode('mover.example', name)).not.toBeNull()
    }
  )

  it('refuses a move to the shard the account is on, or to a shard that is not bound', async () => {
    const account = (await api('POST', '/accounts', { name: 'stayer' })).body.result.id as string
    expect(
      (await api('POST', '/zones', { name: 'stayer.example', account: { id: account } })).status
    ).toBe(200)
    const at = (await api('GET', `/accounts/${account}/shard`)).body.result.shard as number
    expectError(await api('PUT', `/accounts/${account}/shard`, { shard: at }), 400, 9000)
    expectError(await api('PUT', `/accounts/${account}/shard`, { shard: 3 }), 400, 9000)
    // One move of an account at a time, even when two are asked for at once.
    const both = await Promise.all(
      [1, 2].map((k) => api('PUT', `/accounts/${account}/shard`, { shard: (at + k) % 3 }))
    )
    expect(both.map((r) => r.status).sort()).toEqual([202, 400])
    expectError(
      both.find((r) => r.status === 400)!,
      400,
      9000
    )
    expectError(await api('PUT', `/accounts/${account}/shard`, { shard: at }), 400, 9000)
    const started = both.find((r) => r.status === 202)!.body.result
    expect(await awaitMove(account)).toMatchObject({ shard: started.shard, status: 'done' })
  })

  it('finishes a move that stopped half-way when it is asked again', async () => {
    const account = (await api('POST', '/accounts', { name: 'resumer' })).body.result.id as string
    const z = await api('POST', '/zones', { name: 'resumer.example', account: { id: account } })
    const zoneId = z.body.result.id as string
    const batch = await api('POST', `/zones/${zoneId}/dns_records/batch`, {
      posts: Array.from({ length: 30 }, (_, i) => ({
        type: 'A',
        name: `h${i}.resumer.example`,
        content: '192.0.2.1',
      })),
    })
    expect(batch.status).toBe(200)
    const from = (await api('GET', `/accounts/${account}/shard`)).body.result.shard as number
    const to = (from + 2) % 3
    // A move that fenced the account (directory, then the source shard's rows), then stopped:
    // writes are refused meanwhile, reads still served.
    await env.DB.prepare("UPDATE directory_accounts SET state = 'moving' WHERE account_id = ?1")
      .bind(account)
      .run()
    await shard(from)
      .prepare(
        "UPDATE zones SET status = 'moving', version = version + 1 WHERE account_id = ?1 AND status = 'active'"
      )
      .bind(account)
      .run()
    expectError(
      await api('POST', `/zones/${zoneId}/dns_records`, {
        type: 'A',
        name: 'late.resumer.example',
        content: '192.0.2.2',
      }),
      503,
      10004
    )
    expect((await api('GET', `/zones/${zoneId}`)).status).toBe(200)
    const moved = await moveAndWait(account, to)
    expect(moved.started.status).toBe(202)
    expect(moved.done).toMatchObject({ from, shard: to, zones: 1 })
    const n = await shard(to)
      .prepare("SELECT count(*) AS n FROM dns_records WHERE zone_id = ?1 AND type = 'A'")
      .bind(zoneId)
      .first<{ n: number }>()
    expect(n!.n).toBe(30)
    expect(
      (
        await api('POST', `/zones/${zoneId}/dns_records`, {
          type: 'A',
          name: 'late.resumer.example',
          content: '192.0.2.2',
        })
      ).status
    ).toBe(200)
  })

  it("copies the account's settings (api_rate_limit, max_dns_batch_changes) to the destination shard", async () => {
    const account = (await api('POST', '/accounts', { name: 'settled' })).body.result.id as string
    const z = await api('POST', '/zones', { name: 'settled.example', account: { id: account } })
    expect(z.status).toBe(200)
    // Set after the account was placed, so only the account's own row holds them.
    const set = await api('PUT', `/accounts/${account}`, {
      settings: { api_rate_limit: 600, max_dns_batch_changes: 77 },
    })
    expect(set.status).toBe(200)
    const from = (await api('GET', `/accounts/${account}/shard`)).body.result.shard as number
    const to = from === 1 ? 2 : 1
    expect((await moveAndWait(account, to)).done).toMatchObject({ status: 'done' })
    const row = await shard(to)
      .prepare('SELECT api_rate_limit, max_batch_changes FROM accounts WHERE id = ?1')
      .bind(account)
      .first()
    expect(row).toEqual({ api_rate_limit: 600, max_batch_changes: 77 })
    expect((await api('GET', `/accounts/${account}`)).body.result.settings).toMatchObject({
      api_rate_limit: 600,
      max_dns_batch_changes: 77,
    })
  })

  it('resumes a step cut short from the last saved unit, and carries over creates, updates and deletes made between steps', async () => {
    const account = (await api('POST', '/accounts', { name: 'crasher' })).body.result.id as string
    const z = await api('POST', '/zones', { name: 'crasher.example', account: { id: account } })
    const zoneId = z.body.result.id as string
    const posted = await api('POST', `/zones/${zoneId}/dns_records/batch`, {
      posts: Array.from({ length: 1200 }, (_, i) => ({
        type: 'A',
        name: `h${i}.crasher.example`,
        content: '192.0.2.1',
      })),
    })
    expect(posted.status).toBe(200)
    // What the zone's A records must be on the destination: id → content.
    const expected = new Map<string, string>(
      posted.body.result.posts.map((r: { id: string; content: string }) => [r.id, r.content])
    )
    const from = (await api('GET', `/accounts/${account}/shard`)).body.result.shard as number
    const to = (from + 1) % 3

    let saved: MoveJob = await planMove(env, account, to)
    let crashes = 0
    let k = 0
    for (let step = 0; saved.phase !== 'done' && step < 500; step++) {
      // Writes between steps, while the account is not fenced: a create, an update, a delete.
      writes: if (saved.phase === 'copy' || saved.phase === 'catchup') {
        // The destination holds a copy of the zone by now: lists still show the zone once.
        if (saved.zones > 0) {
          const listed = await api('GET', '/zones?name=crasher.example')
          expect(listed.body.result_info.total_count).toBe(1)
          expect(await shardsWithRow(zoneId)).toEqual([from, to].sort())
        }
        const ids = [...expected.keys()]
        const created = await api('POST', `/zones/${zoneId}/dns_records`, {
          type: 'A',
          name: `late${k}.crasher.example`,
          content: '192.0.2.2',
        })
        // A step cut short right after the fence leaves the job saved before it: refused, retryable.
        if (created.status === 503) break writes
        expect(created.status).toBe(200)
        expected.set(created.body.result.id, '192.0.2.2')
        const upd = ids[(k * 7) % ids.length]!
        const patched = await api('PATCH', `/zones/${zoneId}/dns_records/${upd}`, {
          content: `198.51.100.${k % 250}`,
        })
        expect(patched.status).toBe(200)
        expected.set(upd, `198.51.100.${k % 250}`)
        const del = ids[(k * 13 + 5) % ids.length]!
        if (del !== upd) {
          expect((await api('DELETE', `/zones/${zoneId}/dns_records/${del}`)).status).toBe(200)
          expected.delete(del)
        }
        k++
      }
      // Every other step the runtime dies after its first saved unit.
      let saves = 0
      const crash = step % 2 === 1
      try {
        await moveStep(
          env,
          saved,
          async (j) => {
            if (crash && saves++ === 1) throw new Error('killed')
            saved = j
          },
          6
        )
      } catch (e) {
        expect((e as Error).message).toBe('killed')
        crashes++
      }
    }
    expect(saved.phase).toBe('done')
    expect(crashes).toBeGreaterThan(2)
    expect(k).toBeGreaterThan(3)
    const rows = await shard(to)
      .prepare("SELECT id, content FROM dns_records WHERE zone_id = ?1 AND type = 'A'")
      .bind(zoneId)
      .all<{ id: string; content: string }>()
    expect(new Map(rows.results.map((r) => [r.id, r.content]))).toEqual(expected)
    expect((await api('GET', `/accounts/${account}/shard`)).body.result).toMatchObject({
      shard: to,
      state: 'active',
    })
    expect(
      (await api('GET', `/zones/${zoneId}/dns_records?per_page=1&type=A`)).body.result_info
        .total_count
    ).toBe(expected.size)
  })

  it('finds a write whose change-log rowid the source reused after the move noted the log’s end', async () => {
    const account = (await api('POST', '/accounts', { name: 'reuser' })).body.result.id as string
    const z = await api('POST', '/zones', { name: 'reuser.example', account: { id: account } })
    const zoneId = z.body.result.id as string
    const from = (await api('GET', `/accounts/${account}/shard`)).body.result.shard as number
    const to = (from + 1) % 3
    // The newest log row belongs to another zone; the move notes its rowid as the log's end.
    const other = 'f'.repeat(32)
    await shard(from)
      .prepare(
        "INSERT INTO change_log (zone_id, seq, op, created_on) VALUES (?1, 1, 'zone', '2026-01-01T00:00:00Z')"
      )
      .bind(other)
      .run()
    let job = await planMove(env, account, to)
    // The copy runs to its end (the step stops as the catch-up is about to start).
    const stop = new Error('stop')
    for (let i = 0; i < 200 && job.phase === 'copy'; i++)
      await moveStep(env, job, async (j) => {
        job = j
        if (j.phase !== 'copy') throw stop
      }).catch((e) => {
        if (e !== stop) throw e
      })
    expect(job.phase).toBe('catchup')
    // That row is deleted, so the next commit's log row takes the same rowid (SQLite: largest + 1).
    await shard(from).prepare('DELETE FROM change_log WHERE zone_id = ?1').bind(other).run()
    const late = await api('POST', `/zones/${zoneId}/dns_records`, {
      type: 'A',
      name: 'late.reuser.example',
      content: '192.0.2.77',
    })
    expect(late.status).toBe(200)
    const reused = await shard(from)
      .prepare("SELECT rowid AS r FROM change_log WHERE zone_id = ?1 AND op = 'create'")
      .bind(zoneId)
      .first<{ r: number }>()
    expect(reused!.r).toBe(job.logMark)
    for (let i = 0; i < 200 && job.phase !== 'done'; i++)
      job = await moveStep(env, job, async () => {}, 20)
    expect(job.phase).toBe('done')
    // The catch-up (rowids past the noted end) could not see it; the final pass's check by sequence did.
    const found = await shard(to)
      .prepare('SELECT content FROM dns_records WHERE id = ?1')
      .bind(late.body.result.id)
      .first<{ content: string }>()
    expect(found).toEqual({ content: '192.0.2.77' })
  })
})
