/**
 * The propagation report of a pending zone: nothing to build, nothing expected in KV, even when
 * another account holds the same name active or an account move fenced the zone.
 */
import { env } from 'cloudflare:workers'
import { describe, expect, it } from 'vitest'
import { settle } from '../../workers/api/src/builder/test/helpers.ts'
import { deployed } from './deployed.ts'
import { FakeDns, uniqueName, newAccount, messages } from './zone-ownership-helpers.ts'

describe('propagation of a pending zone', () => {
  it('reports a pending zone as pending with nothing to build, and its check expects nothing in KV', async () => {
    const dns = new FakeDns()
    const call = deployed(dns)
    const [a, b] = [await newAccount(), await newAccount()]
    const name = uniqueName('prop')
    // A holds the name active and served; B has the same name pending, with records of its own.
    const za = (await call('POST', '/zones', { name, account: { id: a } })).body.result
    const zb = (await call('POST', '/zones', { name, account: { id: b } })).body.result
    dns.txts.set(`_edgedns-verify.${name}`, [za.verification_key])
    expect(messages(await call('PUT', `/zones/${za.id}/activation_check`))).toEqual([])
    await call('POST', `/zones/${za.id}/dns_records`, {
      type: 'TXT',
      name: `secret.${name}`,
      content: 'only-account-a-sees-this',
    })
    await settle(za.id)
    expect(
      (
        await call('POST', `/zones/${zb.id}/dns_records`, {
          type: 'A',
          name: `www.${name}`,
          content: '192.0.2.90',
        })
      ).status
    ).toBe(200)

    const progress = (await call('GET', `/zones/${zb.id}/propagation`)).body.result
    expect(progress).toMatchObject({ status: 'pending', lag_ms: 0, last_error: null })
    expect(progress.message).toContain('pending')

    const check = await call('GET', `/zones/${zb.id}/propagation/check`)
    expect(check.status).toBe(200)
    expect(check.body.result).toMatchObject({
      zone_id: zb.id,
      status: 'pending',
      converged: true,
      expected_keys: 0,
      difference_count: 0,
      differences: [],
    })
    // The keys under the name are A's: B is shown none of them.
    expect(JSON.stringify(check.body.result)).not.toContain('only-account-a-sees-this')

    // The active zone reports as before.
    const own = (await call('GET', `/zones/${za.id}/propagation/check`)).body.result
    expect(own).toMatchObject({ status: 'active', converged: true })
    expect(own.expected_keys).toBeGreaterThan(0)
    expect((await call('GET', `/zones/${za.id}/propagation`)).body.result.status).toBe('active')
  })

  it('reports a pending zone fenced by an account move (status moving, never activated) as not built', async () => {
    const call = deployed(new FakeDns())
    const name = uniqueName('prop-fenced')
    const zone = (await call('POST', '/zones', { name, account: { id: await newAccount() } })).body
      .result
    expect(
      (
        await call('POST', `/zones/${zone.id}/dns_records`, {
          type: 'A',
          name,
          content: '192.0.2.91',
        })
      ).status
    ).toBe(200)
    // What the move's fence does to every live zone of the account on its source shard.
    await env.DB.prepare("UPDATE zones SET status = 'moving', version = version + 1 WHERE id = ?1")
      .bind(zone.id)
      .run()

    const progress = (await call('GET', `/zones/${zone.id}/propagation`)).body.result
    expect(progress).toMatchObject({ status: 'pending', built_seq: 0, lag_ms: 0, last_error: null })
    expect(progress.message).toContain('pending')
    const check = (await call('GET', `/zones/${zone.id}/propagation/check`)).body.result
    expect(check).toMatchObject({
      status: 'pending',
      converged: true,
      expected_keys: 0,
      difference_count: 0,
    })
  })
})
