/**
 * Activation checks racing each other and other writers: concurrent checks of one zone, and checks
 * that do not activate the zone (lost to an account move's fence, zone deleted, ownership unproven,
 * answer lost after the commit) release or keep the name as the directory requires.
 */
import { env } from 'cloudflare:workers'
import { describe, expect, it } from 'vitest'
import { kvMeta, settle } from '../../workers/api/src/builder/test/helpers.ts'
import { deployed } from './deployed.ts'
import { CHANGE_SEQ_HEADER } from '../../workers/api/src/commit/zone-change.ts'
import { expectError } from './helpers.ts'
import {
  FakeDns,
  uniqueName,
  newAccount,
  messages,
  directoryStatus,
  setZoneStatus,
} from './zone-ownership-helpers.ts'

describe('concurrent activation checks of one zone', () => {
  it('all answer 200 and leave the directory holding the name active', async () => {
    const dns = new FakeDns()
    const call = deployed(dns)
    const name = uniqueName('race')
    const zone = (await call('POST', '/zones', { name, account: { id: await newAccount() } })).body
      .result
    dns.txts.set(`_edgedns-verify.${name}`, [zone.verification_key])
    const results = await Promise.all(
      [1, 2, 3].map(() => call('PUT', `/zones/${zone.id}/activation_check`))
    )
    expect(results.map((r) => r.status)).toEqual([200, 200, 200])
    expect((await call('GET', `/zones/${zone.id}`)).body.result.status).toBe('active')
    expect(await directoryStatus(zone.id)).toBe('active')
  })

  it('still refuse the name and the names below it to another account', async () => {
    const dns = new FakeDns()
    const call = deployed(dns)
    const [a, other] = [await newAccount(), await newAccount()]
    const name = uniqueName('race')
    const zone = (await call('POST', '/zones', { name, account: { id: a } })).body.result
    dns.txts.set(`_edgedns-verify.${name}`, [zone.verification_key])
    await Promise.all([1, 2, 3].map(() => call('PUT', `/zones/${zone.id}/activation_check`)))
    expect((await call('GET', `/zones/${zone.id}`)).body.result.status).toBe('active')
    expectError(await call('POST', '/zones', { name, account: { id: other } }), 400, 1061)
    expectError(
      await call('POST', '/zones', { name: `www.${name}`, account: { id: other } }),
      400,
      1097
    )
  })

  it('hold the name for the zone when a failing check releases it just as another check activates the zone', async () => {
    const dns = new FakeDns()
    const faults: ActivationFaults = { fail: true }
    const call = deployed(dns, undefined, { DB: withActivationFaults(env.DB, faults) })
    const name = uniqueName('race')
    const zone = (await call('POST', '/zones', { name, account: { id: await newAccount() } })).body
      .result
    dns.txts.set(`_edgedns-verify.${name}`, [zone.verification_key])
    // Our commit fails; the other check commits after we read the zone, before we release its name.
    faults.beforeRelease = async () => {
      faults.beforeRelease = undefined
      await concurrentWinner(zone.id)
    }
    expect((await call('PUT', `/zones/${zone.id}/activation_check`)).status).toBe(200)
    expect((await call('GET', `/zones/${zone.id}`)).body.result.status).toBe('active')
    expect(await directoryStatus(zone.id)).toBe('active')
  })

  it('hold the name for the zone when a losing check released it before the winner committed', async () => {
    const dns = new FakeDns()
    const faults: ActivationFaults = {}
    const call = deployed(dns, undefined, { DB: withActivationFaults(env.DB, faults) })
    const name = uniqueName('race')
    const zone = (await call('POST', '/zones', { name, account: { id: await newAccount() } })).body
      .result
    dns.txts.set(`_edgedns-verify.${name}`, [zone.verification_key])
    // The loser read the zone still pending and releases the name after our claim, before our commit.
    faults.before = () => concurrentRelease(zone.id)
    expect((await call('PUT', `/zones/${zone.id}/activation_check`)).status).toBe(200)
    expect((await call('GET', `/zones/${zone.id}`)).body.result.status).toBe('active')
    expect(await directoryStatus(zone.id)).toBe('active')
  })
})

/** What happens around an activation's statements, as another writer would make it happen. */
interface ActivationFaults {
  /** Runs before the batch that activates the zone. */
  before?: () => Promise<void>
  /** The batch applies, then its caller is answered with an error (a connection lost after the commit). */
  loseAnswer?: boolean
  /** The batch fails without applying. */
  fail?: boolean
  /** Runs before the directory sets a name back to pending. */
  beforeRelease?: () => Promise<void>
}

/** The database with `faults` around a zone's activation batch and its name's release. */
function withActivationFaults(db: D1Database, faults: ActivationFaults): D1Database {
  const activations = new WeakSet<D1PreparedStatement>()
  return new Proxy(db, {
    get(target, key) {
      if (key === 'prepare')
        return (sql: string) => {
          const stmt = target.prepare(sql)
          if (sql.includes("SET status = 'pending' WHERE zone_id") && faults.beforeRelease) {
            const hook = faults.beforeRelease
            const bind = stmt.bind.bind(stmt)
            stmt.bind = (...values: unknown[]) => {
              const bound = bind(...values)
              const run = bound.run.bind(bound)
              bound.run = (async () => {
                await hook()
                return run()
              }) as typeof bound.run
              return bound
            }
            return stmt
          }
          if (!sql.includes("SET status = 'active', activated_on")) return stmt
          const bind = stmt.bind.bind(stmt)
          stmt.bind = (...values: unknown[]) => {
            const bound = bind(...values)
            activations.add(bound)
            return bound
          }
          return stmt
        }
      if (key === 'batch')
        return async (stmts: D1PreparedStatement[]) => {
          if (!stmts.some((st) => activations.has(st))) return target.batch(stmts)
          await faults.before?.()
          if (faults.fail) throw new Error('D1_ERROR: connection lost')
          const results = await target.batch(stmts)
          if (faults.loseAnswer) throw new Error('D1_ERROR: connection lost')
          return results
        }
      const value = Reflect.get(target, key)
      return typeof value === 'function' ? value.bind(target) : value
    },
  })
}

/** What a concurrent check of the zone that won does: the zone active, its name held for it. */
async function concurrentWinner(zoneId: string): Promise<void> {
  await env.DB.prepare("UPDATE directory_zones SET status = 'active' WHERE zone_id = ?1")
    .bind(zoneId)
    .run()
  await env.DB.prepare(
    "UPDATE zones SET status = 'active', version = version + 1, change_seq = change_seq + 1 WHERE id = ?1"
  )
    .bind(zoneId)
    .run()
}

/** What a concurrent losing check of the zone does: its name set back to pending. */
async function concurrentRelease(zoneId: string): Promise<void> {
  await env.DB.prepare("UPDATE directory_zones SET status = 'pending' WHERE zone_id = ?1")
    .bind(zoneId)
    .run()
}

describe('an activation check that does not activate the zone', () => {
  it('releases the name when its commit loses to an account move’s fence, so another owner can create the zone', async () => {
    const dns = new FakeDns()
    const call = deployed(dns)
    const [a, other] = [await newAccount(), await newAccount()]
    const name = uniqueName('fenced-check')
    const zone = (await call('POST', '/zones', { name, account: { id: a } })).body.result
    dns.txts.set(`_edgedns-verify.${name}`, [zone.verification_key])
    // An account move fences the zone while the check asks the DNS (after the zone was read).
    dns.onLookup = () => setZoneStatus(zone.id, 'moving')
    expectError(await call('PUT', `/zones/${zone.id}/activation_check`), 409, 81064)
    expect(await directoryStatus(zone.id)).toBe('pending')
    // The move ends (the zone is pending again) and the domain changes hands.
    await setZoneStatus(zone.id, 'pending')
    dns.txts.delete(`_edgedns-verify.${name}`)
    const again = await call('PUT', `/zones/${zone.id}/activation_check`)
    expect(messages(again)[0]!.code).toBe(10005)
    expect((await call('GET', `/zones/${zone.id}`)).body.result.status).toBe('pending')
    expect(await directoryStatus(zone.id)).toBe('pending')
    const theirs = await call('POST', '/zones', { name, account: { id: other } })
    expect(theirs.status, JSON.stringify(theirs.body)).toBe(200)
  })

  it('releases the name when it finds the zone deleted (404)', async () => {
    const dns = new FakeDns()
    const call = deployed(dns)
    const name = uniqueName('deleted-check')
    const zone = (await call('POST', '/zones', { name, account: { id: await newAccount() } })).body
      .result
    dns.txts.set(`_edgedns-verify.${name}`, [zone.verification_key])
    // The zone is deleted on its shard while the check asks the DNS.
    dns.onLookup = () => setZoneStatus(zone.id, 'deleted')
    expectError(await call('PUT', `/zones/${zone.id}/activation_check`), 404, 7003)
    expect(await directoryStatus(zone.id)).toBe('pending')
  })

  it('leaves the name pending when ownership is not proven, even if the directory held it', async () => {
    const call = deployed(new FakeDns())
    const name = uniqueName('unproven')
    const zone = (await call('POST', '/zones', { name, account: { id: await newAccount() } })).body
      .result
    // What a check interrupted between claiming the name and committing the zone left behind.
    await env.DB.prepare("UPDATE directory_zones SET status = 'active' WHERE zone_id = ?1")
      .bind(zone.id)
      .run()
    expect(messages(await call('PUT', `/zones/${zone.id}/activation_check`))[0]!.code).toBe(10005)
    expect(await directoryStatus(zone.id)).toBe('pending')
  })

  it('still announces the build when its own commit applied but answered with an error', async () => {
    const dns = new FakeDns()
    const call = deployed(dns, undefined, {
      DB: withActivationFaults(env.DB, { loseAnswer: true }),
    })
    const name = uniqueName('lost-answer')
    const zone = (await call('POST', '/zones', { name, account: { id: await newAccount() } })).body
      .result
    dns.txts.set(`_edgedns-verify.${name}`, [zone.verification_key])
    const check = await call('PUT', `/zones/${zone.id}/activation_check`)
    expect(check.status).toBe(200)
    expect((await call('GET', `/zones/${zone.id}`)).body.result.status).toBe('active')
    expect(await directoryStatus(zone.id)).toBe('active')
    expect(check.headers.get(CHANGE_SEQ_HEADER)).not.toBeNull()
    await settle(zone.id)
    expect(await kvMeta(name)).not.toBeNull()
  })
})
