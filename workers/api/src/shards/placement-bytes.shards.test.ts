/**
 * Placement by bytes over three D1 shards: a new account goes to the shard holding the fewest bytes
 * (what D1 reports as the database's size), a shard past SHARD_HIGH_WATER_BYTES takes no new
 * account, and when every shard is past it creating an account's first zone is refused with a
 * Cloudflare-envelope error that says what to do.
 */
import { createExecutionContext, waitOnExecutionContext } from 'cloudflare:test'
import { env } from 'cloudflare:workers'
import { describe, expect, it } from 'vitest'
import { api, DEV_TOKEN, expectError } from '../../../../test/api/helpers.ts'
import worker from '../index.ts'
import { makeSmallest } from '../../../../test/api/shard-bytes.ts'
import { forgetShardSizes } from './shard-sizes.ts'

let n = 0
async function newAccount(): Promise<string> {
  const res = await api('POST', '/accounts', { name: `bytes-test-${n++}` })
  expect(res.status).toBe(200)
  return res.body.result.id
}

/** Gives shard `i` the most accounts in the directory. */
async function crowd(i: number): Promise<void> {
  const rows = await env.DB.prepare(
    'SELECT shard, count(*) AS n FROM directory_accounts GROUP BY shard'
  ).all<{ shard: number; n: number }>()
  const most = Math.max(0, ...rows.results.map((r) => r.n))
  await env.DB.batch(
    Array.from({ length: most + 3 }, (_, k) =>
      env.DB.prepare(
        "INSERT INTO directory_accounts (account_id, shard, modified_on) VALUES (?1, ?2, '2026-01-01T00:00:00Z')"
      ).bind(`crowd-${i}-${n++}-${k}`, i)
    )
  )
}

/** POST /zones through the worker with extra variables. */
async function createZoneWith(vars: Record<string, string>, accountId: string, name: string) {
  const ctx = createExecutionContext()
  const res = await worker.fetch(
    new Request('http://localhost/client/v4/zones', {
      method: 'POST',
      headers: { authorization: `Bearer ${DEV_TOKEN}`, 'content-type': 'application/json' },
      body: JSON.stringify({ name, account: { id: accountId } }),
    }),
    { ...env, ...vars } as Env,
    ctx
  )
  await waitOnExecutionContext(ctx)
  return { status: res.status, body: (await res.json()) as any }
}

const placedOn = async (accountId: string) =>
  (await api('GET', `/accounts/${accountId}/shard`)).body.result.shard as number | null

describe('placing accounts by bytes', () => {
  it('places a new account on the shard holding the fewest bytes, even when it holds the most accounts', async () => {
    await makeSmallest(1)
    await crowd(1)
    forgetShardSizes()
    const a = await newAccount()
    expect(
      (await api('POST', '/zones', { name: 'by-bytes.example', account: { id: a } })).status
    ).toBe(200)
    expect(await placedOn(a)).toBe(1)
  })

  it('skips a shard past SHARD_HIGH_WATER_BYTES, whatever the placement policy would pick', async () => {
    const s = await makeSmallest(2)
    // By accounts alone shard 2 would never be picked; every other shard is past the mark.
    await crowd(2)
    forgetShardSizes()
    const highWater = String(Math.min(s[0]!, s[1]!) - 500_000)
    const a = await newAccount()
    const res = await createZoneWith(
      { SHARD_PLACEMENT: 'least-loaded', SHARD_HIGH_WATER_BYTES: highWater },
      a,
      'below-the-mark.example'
    )
    expect(res.status, JSON.stringify(res.body)).toBe(200)
    expect(await placedOn(a)).toBe(2)
  })

  it('refuses the first zone of a new account when every shard is past the mark, saying what to do, and changes nothing', async () => {
    forgetShardSizes()
    const a = await newAccount()
    const res = await createZoneWith({ SHARD_HIGH_WATER_BYTES: '1' }, a, 'nowhere-to-go.example')
    expectError({ ...res, headers: new Headers() }, 507, 10006)
    const message = res.body.errors[0].message as string
    expect(message).toContain('SHARD_HIGH_WATER_BYTES')
    expect(message).toContain('add a shard')
    expect(message).toContain('move accounts off a shard')
    // Nothing was placed or reserved: the account stays unplaced and the name free.
    expect(await placedOn(a)).toBeNull()
    const held = await env.DB.prepare(
      "SELECT count(*) AS n FROM directory_zones WHERE name = 'nowhere-to-go.example'"
    ).first<{ n: number }>()
    expect(held!.n).toBe(0)
    // An account already placed keeps adding zones on its shard.
    const b = await newAccount()
    expect(
      (await api('POST', '/zones', { name: 'placed-before.example', account: { id: b } })).status
    ).toBe(200)
    const more = await createZoneWith(
      { SHARD_HIGH_WATER_BYTES: '1' },
      b,
      'second.placed-before-2.example'
    )
    expect(more.status, JSON.stringify(more.body)).toBe(200)
  })
})
