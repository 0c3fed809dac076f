/**
 * Three D1 shards with ZONE_VERIFICATION=required: a name pending in accounts on different shards,
 * one of them activating it through the directory, and an account move keeping a pending zone
 * pending.
 */
import { describe, expect, it } from 'vitest'
import { deployed } from '../../../../test/api/deployed.ts'
import { moveAndWait } from '../../../../test/api/shard-move.ts'
import { api, expectError } from '../../../../test/api/helpers.ts'
import type { OwnershipResolver } from '../zones/resolver.ts'

const txts = new Map<string, string[]>()
const dns: OwnershipResolver = {
  txt: async (name) => txts.get(name) ?? [],
  nameServers: async () => [],
}
const call = deployed(dns)

let n = 0
async function newAccount(): Promise<string> {
  const res = await api('POST', '/accounts', { name: `owner-shard-${n++}` })
  expect(res.status).toBe(200)
  return res.body.result.id
}

const shardOf = async (accountId: string): Promise<number> =>
  (await api('GET', `/accounts/${accountId}/shard`)).body.result.shard

describe('zone ownership across D1 shards', () => {
  it('lets accounts on different shards hold a name pending; the directory lets one activate it', async () => {
    const accounts = [await newAccount(), await newAccount(), await newAccount()]
    const zones = []
    for (const a of accounts) {
      const res = await call('POST', '/zones', { name: 'contested.example', account: { id: a } })
      expect(res.status, JSON.stringify(res.body)).toBe(200)
      expect(res.body.result.status).toBe('pending')
      zones.push(res.body.result)
    }
    expect(new Set(await Promise.all(accounts.map(shardOf))).size).toBe(3)

    txts.set('_edgedns-verify.contested.example', [zones[1].verification_key])
    expect((await call('PUT', `/zones/${zones[1].id}/activation_check`)).status).toBe(200)
    expect((await call('GET', `/zones/${zones[1].id}`)).body.result.status).toBe('active')

    txts.set(
      '_edgedns-verify.contested.example',
      zones.map((z) => z.verification_key)
    )
    for (const i of [0, 2]) {
      expectError(await call('PUT', `/zones/${zones[i].id}/activation_check`), 400, 1061)
      expect((await call('GET', `/zones/${zones[i].id}`)).body.result.status).toBe('pending')
    }
    expectError(
      await call('POST', '/zones', { name: 'www.contested.example', account: { id: accounts[0] } }),
      400,
      1097
    )
  })

  it('keeps a pending zone pending (and an active one active) when its account moves', async () => {
    const a = await newAccount()
    const pending = (
      await call('POST', '/zones', { name: 'moving-pending.example', account: { id: a } })
    ).body.result
    const other = (
      await call('POST', '/zones', { name: 'moving-active.example', account: { id: a } })
    ).body.result
    txts.set('_edgedns-verify.moving-active.example', [other.verification_key])
    await call('PUT', `/zones/${other.id}/activation_check`)
    const from = await shardOf(a)
    const to = (from + 1) % 3
    const moved = await moveAndWait(a, to)
    expect(moved.started.status, JSON.stringify(moved.started.body)).toBe(202)
    expect(await shardOf(a)).toBe(to)
    expect((await call('GET', `/zones/${pending.id}`)).body.result.status).toBe('pending')
    expect((await call('GET', `/zones/${other.id}`)).body.result.status).toBe('active')
  })
})
