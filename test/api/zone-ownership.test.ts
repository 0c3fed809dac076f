/**
 * Zone squatting: public suffixes are refused; with ZONE_VERIFICATION=required a new zone is
 * pending (the same name may be pending in several accounts), unserved, until its owner proves
 * control of the name by TXT or by delegation through `PUT /zones/{id}/activation_check`; one
 * account holds a name active. With verification off (local development, tests) zones are served
 * at once, as before.
 */
import { env, exports } from 'cloudflare:workers'
import { describe, expect, it, vi } from 'vitest'
import type { OwnershipResolver } from '../../workers/api/src/zones/resolver.ts'
import {
  builder,
  kvHeadKeys,
  kvMeta,
  kvZoneKeys,
  settle,
} from '../../workers/api/src/builder/test/helpers.ts'
import { deployed } from './deployed.ts'
import { CHANGE_SEQ_HEADER } from '../../workers/api/src/commit/zone-change.ts'
import { api, DEFAULT_ACCOUNT, expectError, type ApiResponse } from './helpers.ts'

/** What the fake public DNS says: TXT strings and delegations by name. */
class FakeDns implements OwnershipResolver {
  readonly txts = new Map<string, string[]>()
  readonly delegations = new Map<string, string[]>()
  /** Runs once, at the next TXT lookup: something that happens while a check asks the DNS. */
  onLookup: (() => Promise<void>) | undefined
  async txt(name: string): Promise<string[]> {
    const hook = this.onLookup
    this.onLookup = undefined
    if (hook) await hook()
    return this.txts.get(name) ?? []
  }
  async nameServers(name: string): Promise<string[]> {
    return this.delegations.get(name) ?? []
  }
}

let counter = 0
const uniqueName = (prefix: string): string =>
  `${prefix}-${Date.now().toString(36)}-${counter++}.example`

async function newAccount(): Promise<string> {
  const res = await api('POST', '/accounts', { name: `owner-${counter++}` })
  expect(res.status).toBe(200)
  return res.body.result.id
}

/** The envelope's `messages` (the activation check's verdict travels there). */
const messages = (res: ApiResponse): { code: number; message: string }[] =>
  (res.body as unknown as { messages: { code: number; message: string }[] }).messages

async function dohStatus(name: string, type = 'A'): Promise<{ Status: number; Answer?: any[] }> {
  const res = await (exports as any).default.fetch(
    `http://localhost/dns-query?name=${name}&type=${type}`,
    { headers: { accept: 'application/dns-json' } }
  )
  return (await res.json()) as { Status: number; Answer?: any[] }
}

const REFUSED = 5

describe('public suffixes', () => {
  it('refuses a top-level domain with 1099', async () => {
    expectError(
      await api('POST', '/zones', { name: 'com', account: { id: DEFAULT_ACCOUNT } }),
      400,
      1099
    )
  })

  it.each(['co.uk', 'github.io', 'CO.UK.', 'workers.dev'])('refuses %s with 1099', async (name) => {
    const res = await api('POST', '/zones', { name, account: { id: DEFAULT_ACCOUNT } })
    expectError(res, 400, 1099)
    expect(res.body.errors[0]!.message).toContain('public suffix')
  })

  it('accepts domains registered under a public suffix and the reserved test names', async () => {
    for (const name of [
      uniqueName('reg').replace(/\.example$/, '.github.io'),
      uniqueName('reg').replace(/\.example$/, '.co.uk'),
      uniqueName('reg').replace(/\.example$/, '.test'),
      uniqueName('reg'),
    ]) {
      const res = await api('POST', '/zones', { name, account: { id: DEFAULT_ACCOUNT } })
      expect(res.status, JSON.stringify(res.body)).toBe(200)
    }
  })
})

describe('zone ownership with ZONE_VERIFICATION=required', () => {
  it('creates zones pending, lets the same name be pending in two accounts, once in each', async () => {
    const call = deployed(new FakeDns())
    const [a, b] = [await newAccount(), await newAccount()]
    const name = uniqueName('squat')
    const first = await call('POST', '/zones', { name, account: { id: a } })
    expect(first.status).toBe(200)
    expect(first.body.result).toMatchObject({ name, status: 'pending', activated_on: null })
    expect(first.body.result.verification_key).toMatch(/^[0-9a-f]{32}$/)
    const second = await call('POST', '/zones', { name, account: { id: b } })
    expect(second.status).toBe(200)
    expect(second.body.result.status).toBe('pending')
    expect(second.body.result.verification_key).not.toBe(first.body.result.verification_key)
    // A pending zone blocks nothing of another account, not even names below it.
    expect((await call('POST', '/zones', { name: `www.${name}`, account: { id: b } })).status).toBe(
      200
    )
    expectError(await call('POST', '/zones', { name, account: { id: a } }), 400, 1061)
  })

  it('activates the account whose TXT record holds its key; the other stays pending and cannot activate', async () => {
    const dns = new FakeDns()
    const call = deployed(dns)
    const [a, b] = [await newAccount(), await newAccount()]
    const name = uniqueName('txt')
    const za = (await call('POST', '/zones', { name, account: { id: a } })).body.result
    const zb = (await call('POST', '/zones', { name, account: { id: b } })).body.result

    // No proof yet: still pending, and the message says what is missing.
    const early = await call('PUT', `/zones/${za.id}/activation_check`)
    expect(early.status).toBe(200)
    expect(early.body.result).toEqual({ id: za.id })
    expect(messages(early)[0]!.code).toBe(10005)
    expect(messages(early)[0]!.message).toContain(`_edgedns-verify.${name}`)
    expect((await call('GET', `/zones/${za.id}`)).body.result.status).toBe('pending')

    dns.txts.set(`_edgedns-verify.${name}`, ['unrelated', za.verification_key])
    const check = await call('PUT', `/zones/${za.id}/activation_check`)
    expect(check.status).toBe(200)
    expect(messages(check)).toEqual([])
    const active = (await call('GET', `/zones/${za.id}`)).body.result
    expect(active.status).toBe('active')
    expect(active.activated_on).not.toBeNull()

    // B proves nothing of its own: still pending. Even with its key published, A holds the name.
    expect(messages(await call('PUT', `/zones/${zb.id}/activation_check`))[0]!.code).toBe(10005)
    dns.txts.set(`_edgedns-verify.${name}`, [za.verification_key, zb.verification_key])
    expectError(await call('PUT', `/zones/${zb.id}/activation_check`), 400, 1061)
    expect((await call('GET', `/zones/${zb.id}`)).body.result.status).toBe('pending')
    // Names under (and the same name in) an account holding it active stay refused to others.
    expectError(await call('POST', '/zones', { name: `x.${name}`, account: { id: b } }), 400, 1097)
    expectError(
      await call('POST', '/zones', { name, account: { id: await newAccount() } }),
      400,
      1061
    )

    // Once A deletes its zone, B can activate.
    expect((await call('DELETE', `/zones/${za.id}`)).status).toBe(200)
    expect(messages(await call('PUT', `/zones/${zb.id}/activation_check`))).toEqual([])
    expect((await call('GET', `/zones/${zb.id}`)).body.result.status).toBe('active')
  })

  it('activates by delegation to the zone name servers only while no other account has the name pending', async () => {
    const dns = new FakeDns()
    const call = deployed(dns)
    const [a, b] = [await newAccount(), await newAccount()]
    const name = uniqueName('ns')
    const za = (await call('POST', '/zones', { name, account: { id: a } })).body.result
    const zb = (await call('POST', '/zones', { name, account: { id: b } })).body.result
    expect(za.name_servers.length).toBeGreaterThan(0)

    dns.delegations.set(name, ['ns9.elsewhere.example'])
    const elsewhere = await call('PUT', `/zones/${za.id}/activation_check`)
    expect(messages(elsewhere)[0]!.message).toContain('ns9.elsewhere.example')

    // The name servers are the platform's, shared by every account: with B pending too, the
    // delegation cannot say which account the owner meant.
    dns.delegations.set(
      name,
      za.name_servers.map((n: string) => `${n.toUpperCase()}.`)
    )
    const shared = await call('PUT', `/zones/${za.id}/activation_check`)
    expect(messages(shared)[0]!.code).toBe(10005)
    expect(messages(shared)[0]!.message).toContain('pending in another account')
    expect((await call('GET', `/zones/${za.id}`)).body.result.status).toBe('pending')

    expect((await call('DELETE', `/zones/${zb.id}`)).status).toBe(200)
    expect(messages(await call('PUT', `/zones/${za.id}/activation_check`))).toEqual([])
    expect((await call('GET', `/zones/${za.id}`)).body.result.status).toBe('active')
    // A new pending copy elsewhere cannot take it over.
    const late = (await call('POST', '/zones', { name, account: { id: b } })).body
    expect(late.success).toBe(false)
    expect(late.errors[0]!.code).toBe(1061)
  })

  it('does not take vanity name servers as proof: the domain’s current provider’s are anybody’s to copy', async () => {
    const dns = new FakeDns()
    const call = deployed(dns)
    const name = uniqueName('victim')
    const providerNs = ['ns1.victim-dns-provider.example', 'ns2.victim-dns-provider.example']
    dns.delegations.set(name, providerNs)
    const zone = (await call('POST', '/zones', { name, account: { id: await newAccount() } })).body
      .result
    expect(zone.status).toBe('pending')
    const patched = await call('PATCH', `/zones/${zone.id}`, { vanity_name_servers: providerNs })
    expect(patched.status).toBe(200)
    const check = await call('PUT', `/zones/${zone.id}/activation_check`)
    expect(messages(check)[0]!.code).toBe(10005)
    expect(messages(check)[0]!.message).toContain(zone.name_servers[0])
    expect((await call('GET', `/zones/${zone.id}`)).body.result.status).toBe('pending')
  })

  it('does not build a pending zone fenced by an account move (status moving, never activated)', async () => {
    const call = deployed(new FakeDns())
    const name = uniqueName('fenced')
    const zone = (await call('POST', '/zones', { name, account: { id: await newAccount() } })).body
      .result
    const rec = await call('POST', `/zones/${zone.id}/dns_records`, {
      type: 'A',
      name,
      content: '192.0.2.81',
      ttl: 300,
    })
    expect(rec.status).toBe(200)
    // What the move's fence does to every live zone of the account on its source shard.
    await env.DB.prepare("UPDATE zones SET status = 'moving', version = version + 1 WHERE id = ?1")
      .bind(zone.id)
      .run()
    await builder(zone.id).rebuild(zone.id)
    expect(await kvMeta(name)).toBeNull()
    expect(await kvZoneKeys(name)).toEqual([])
    expect(await kvHeadKeys(name)).toEqual([])
  })

  it('does not serve a pending zone (REFUSED, nothing in KV) and serves it once activated', async () => {
    const dns = new FakeDns()
    const call = deployed(dns)
    const a = await newAccount()
    const name = uniqueName('serve')
    const zone = (await call('POST', '/zones', { name, account: { id: a } })).body.result
    const rec = await call('POST', `/zones/${zone.id}/dns_records`, {
      type: 'A',
      name: `www.${name}`,
      content: '192.0.2.80',
      ttl: 300,
    })
    expect(rec.status).toBe(200)
    // Whatever the builder is asked to do, a pending zone gets no keys.
    await builder(zone.id).rebuild(zone.id)
    expect(await kvMeta(name)).toBeNull()
    expect(await kvZoneKeys(name)).toEqual([])
    expect(await kvHeadKeys(name)).toEqual([])
    expect((await dohStatus(`www.${name}`)).Status).toBe(REFUSED)
    expect((await dohStatus(name, 'SOA')).Status).toBe(REFUSED)

    dns.txts.set(`_edgedns-verify.${name}`, [zone.verification_key])
    expect(messages(await call('PUT', `/zones/${zone.id}/activation_check`))).toEqual([])
    await settle(zone.id)
    // A name queried before its zone existed is trusted as "no zone here" for up to a second.
    const answer = await vi.waitFor(
      async () => {
        const a = await dohStatus(`www.${name}`)
        if (a.Status !== 0) throw new Error(`rcode ${a.Status}`)
        return a
      },
      { timeout: 3000, interval: 100 }
    )
    expect(answer.Answer?.map((r) => r.data)).toEqual(['192.0.2.80'])
  })
})

/** The zone's standing in the shard directory (the platform-wide record of who holds a name). */
async function directoryStatus(zoneId: string): Promise<string | undefined> {
  const row = await env.DB.prepare('SELECT status FROM directory_zones WHERE zone_id = ?1')
    .bind(zoneId)
    .first<{ status: string }>()
  return row?.status
}

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

/** What a zone's row on its shard is made to say, as another writer would leave it. */
async function setZoneStatus(zoneId: string, status: string): Promise<void> {
  await env.DB.prepare('UPDATE zones SET status = ?2, version = version + 1 WHERE id = ?1')
    .bind(zoneId, status)
    .run()
}

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

/**
 * Local rate limiters count in windows aligned to the wall-clock minute: a test that must stay in
 * one window waits for the next one when fewer than `needMs` are left of this one.
 */
async function freshWindow(needMs: number): Promise<void> {
  const left = 60_000 - (Date.now() % 60_000)
  if (left < needMs) await new Promise((resolve) => setTimeout(resolve, left + 50))
}

describe('the activation check rate limit', () => {
  it(
    'answers 429 with retry-after to a second lookup for the same pending zone within the minute, per zone, and never counts checks that look nothing up',
    { timeout: 30_000 },
    async () => {
      await freshWindow(10_000)
      const asked: string[] = []
      const dns = new FakeDns()
      const counting: OwnershipResolver = {
        txt: (name) => (asked.push(name), dns.txt(name)),
        nameServers: (name) => (asked.push(name), dns.nameServers(name)),
      }
      const call = deployed(counting as FakeDns, env.ACTIVATION_CHECK_LIMITER)
      const a = await newAccount()
      const zone = (await call('POST', '/zones', { name: uniqueName('limit'), account: { id: a } }))
        .body.result
      const other = (
        await call('POST', '/zones', { name: uniqueName('limit'), account: { id: a } })
      ).body.result

      expect(messages(await call('PUT', `/zones/${zone.id}/activation_check`))[0]!.code).toBe(10005)
      const lookups = asked.length
      expect(lookups).toBeGreaterThan(0)
      const again = await call('PUT', `/zones/${zone.id}/activation_check`)
      expect(again.status).toBe(429)
      expect(again.body.errors[0]!.code).toBe(971)
      expect(again.headers.get('retry-after')).toBe('60')
      // Refused before anything is looked up, and the zone is unchanged.
      expect(asked.length).toBe(lookups)
      expect((await call('GET', `/zones/${zone.id}`)).body.result.status).toBe('pending')
      // Another zone has its own budget.
      expect((await call('PUT', `/zones/${other.id}/activation_check`)).status).toBe(200)

      // Checks that look nothing up are not counted: an active zone, or verification off.
      const active = (
        await api('POST', '/zones', { name: uniqueName('free'), account: { id: DEFAULT_ACCOUNT } })
      ).body.result
      for (let i = 0; i < 3; i++)
        expect((await api('PUT', `/zones/${active.id}/activation_check`)).status).toBe(200)
    }
  )
})

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

describe('zone ownership with ZONE_VERIFICATION=off (local development, tests)', () => {
  it('creates zones active and serves them at once; the activation check of an active zone changes nothing', async () => {
    const name = uniqueName('dev')
    const res = await api('POST', '/zones', { name, account: { id: DEFAULT_ACCOUNT } })
    expect(res.body.result.status).toBe('active')
    expect(res.body.result.activated_on).not.toBeNull()
    const id = res.body.result.id
    await api('POST', `/zones/${id}/dns_records`, {
      type: 'A',
      name: `www.${name}`,
      content: '192.0.2.81',
      ttl: 300,
    })
    await settle(id)
    expect((await dohStatus(`www.${name}`)).Status).toBe(0)
    const check = await api('PUT', `/zones/${id}/activation_check`)
    expect(check.status).toBe(200)
    expect(check.body.result).toEqual({ id })
  })

  it('activates a zone left pending by a required deployment without asking the DNS', async () => {
    const dns = new FakeDns()
    const a = await newAccount()
    const name = uniqueName('switch')
    const zone = (await deployed(dns)('POST', '/zones', { name, account: { id: a } })).body.result
    expect(zone.status).toBe('pending')
    const check = await api('PUT', `/zones/${zone.id}/activation_check`)
    expect(check.status).toBe(200)
    expect(messages(check)).toEqual([])
    expect((await api('GET', `/zones/${zone.id}`)).body.result.status).toBe('active')
  })
})
