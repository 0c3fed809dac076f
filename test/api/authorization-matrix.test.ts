/**
 * Authorization matrix generated from the OpenAPI document: every documented route is asked by
 * every kind of caller (no token, invalid, expired, revoked, read-only, a token for another zone,
 * a token for another account) and must answer the status its access rule gives. A route added to
 * the document without a rule in ACCESS fails here.
 */
import { env, exports } from 'cloudflare:workers'
import { beforeAll, describe, expect, it } from 'vitest'
import { openApiDocument } from '../../workers/api/src/openapi/document.ts'
import { api, createZone, DEFAULT_ACCOUNT } from './helpers.ts'

type Caller = 'none' | 'invalid' | 'expired' | 'revoked' | 'readOnly' | 'otherZone' | 'otherAccount'
const CALLERS: Caller[] = [
  'none',
  'invalid',
  'expired',
  'revoked',
  'readOnly',
  'otherZone',
  'otherAccount',
]

/**
 * Who a route serves. The read-only token holds DNS Read and Zone Read on the whole account; the
 * other-zone token holds every permission on another zone of that account; the other-account token
 * holds every permission (tokens included) on another account.
 */
type Access =
  | 'public' // no token needed
  | 'anyToken' // any valid token (token introspection)
  | 'listFiltered' // any valid token; the list holds only what the token reaches
  | 'zoneRead' // a read permission on the zone
  | 'zoneWrite' // a write permission on the zone
  | 'accountRead' // reaches the account (a grant on it or one of its zones); others get 404
  | 'accountWrite' // Zone Write on the whole account (zone creation)
  | 'accountTokens' // API Tokens Write on the account
  | 'accountDnsRead' // DNS Read on the whole account (a grant on one of its zones is not enough)
  | 'accountDnsWrite' // DNS Write on the whole account
  | 'admin' // the administrator (local dev) token only
  | 'transferRelay' // Zone Transfer Relay (a DNS front's token) or the administrator

const ACCESS: Record<string, Access> = {
  'get /openapi.json': 'public',
  'get /local_dev': 'public', // offers the dev token where one is configured (the tests configure one)
  'get /docs': 'public',
  'get /accounts': 'listFiltered',
  'post /accounts': 'admin',
  'get /accounts/{account_id}': 'accountRead',
  'put /accounts/{account_id}': 'admin',
  'get /accounts/{account_id}/tokens/verify': 'anyToken',
  'get /accounts/{account_id}/tokens/permission_groups': 'anyToken',
  'post /accounts/{account_id}/tokens': 'accountTokens',
  'get /accounts/{account_id}/tokens': 'accountTokens',
  'get /accounts/{account_id}/tokens/{token_id}': 'accountTokens',
  'delete /accounts/{account_id}/tokens/{token_id}': 'accountTokens',
  'get /accounts/{account_id}/audit_logs': 'accountTokens',
  'get /user/tokens/verify': 'anyToken',
  'get /user/tokens/permission_groups': 'anyToken',
  'post /user/tokens': 'admin',
  'get /user/tokens': 'admin',
  'get /user/tokens/{token_id}': 'admin',
  'delete /user/tokens/{token_id}': 'admin',
  'get /user/audit_logs': 'admin',
  'get /zones': 'listFiltered',
  'post /zones': 'accountWrite',
  'get /zones/{zone_id}': 'zoneRead',
  'patch /zones/{zone_id}': 'zoneWrite',
  'delete /zones/{zone_id}': 'zoneWrite',
  'put /zones/{zone_id}/activation_check': 'zoneWrite',
  'get /zones/{zone_id}/dns_settings': 'zoneRead',
  'patch /zones/{zone_id}/dns_settings': 'zoneWrite',
  'get /zones/{zone_id}/pagerules': 'zoneRead',
  'get /zones/{zone_id}/dnssec': 'zoneRead',
  'patch /zones/{zone_id}/dnssec': 'zoneWrite',
  'delete /zones/{zone_id}/dnssec': 'zoneWrite',
  'post /zones/{zone_id}/dnssec/keys': 'zoneWrite',
  'delete /zones/{zone_id}/dnssec/keys/{tag}': 'zoneWrite',
  'get /zones/{zone_id}/dns_records': 'zoneRead',
  'post /zones/{zone_id}/dns_records': 'zoneWrite',
  'get /zones/{zone_id}/dns_records/{record_id}': 'zoneRead',
  'put /zones/{zone_id}/dns_records/{record_id}': 'zoneWrite',
  'patch /zones/{zone_id}/dns_records/{record_id}': 'zoneWrite',
  'delete /zones/{zone_id}/dns_records/{record_id}': 'zoneWrite',
  'post /zones/{zone_id}/dns_records/batch': 'zoneWrite',
  'post /zones/{zone_id}/dns_records/import': 'zoneWrite',
  'get /zones/{zone_id}/dns_records/export': 'zoneRead',
  'get /zones/{zone_id}/dns_records/audit': 'zoneRead',
  'get /zones/{zone_id}/propagation': 'zoneRead',
  'post /zones/{zone_id}/propagation/rebuild': 'zoneWrite',
  'get /zones/{zone_id}/propagation/check': 'zoneRead',
  'post /propagation/sweep': 'admin',
  'get /accounts/{account_id}/shard': 'admin',
  'put /accounts/{account_id}/shard': 'admin',
  'get /accounts/{account_id}/secondary_dns/tsigs': 'accountDnsRead',
  'post /accounts/{account_id}/secondary_dns/tsigs': 'accountDnsWrite',
  'get /accounts/{account_id}/secondary_dns/tsigs/{tsig_id}': 'accountDnsRead',
  'put /accounts/{account_id}/secondary_dns/tsigs/{tsig_id}': 'accountDnsWrite',
  'delete /accounts/{account_id}/secondary_dns/tsigs/{tsig_id}': 'accountDnsWrite',
  'get /accounts/{account_id}/secondary_dns/peers': 'accountDnsRead',
  'post /accounts/{account_id}/secondary_dns/peers': 'accountDnsWrite',
  'get /accounts/{account_id}/secondary_dns/peers/{peer_id}': 'accountDnsRead',
  'put /accounts/{account_id}/secondary_dns/peers/{peer_id}': 'accountDnsWrite',
  'delete /accounts/{account_id}/secondary_dns/peers/{peer_id}': 'accountDnsWrite',
  'get /accounts/{account_id}/secondary_dns/acls': 'accountDnsRead',
  'post /accounts/{account_id}/secondary_dns/acls': 'accountDnsWrite',
  'get /accounts/{account_id}/secondary_dns/acls/{acl_id}': 'accountDnsRead',
  'put /accounts/{account_id}/secondary_dns/acls/{acl_id}': 'accountDnsWrite',
  'delete /accounts/{account_id}/secondary_dns/acls/{acl_id}': 'accountDnsWrite',
  'get /accounts/{account_id}/secondary_dns/catalog': 'accountDnsRead',
  'put /accounts/{account_id}/secondary_dns/catalog': 'accountDnsWrite',
  'delete /accounts/{account_id}/secondary_dns/catalog': 'accountDnsWrite',
  'get /zones/{zone_id}/secondary_dns/incoming': 'zoneRead',
  'post /zones/{zone_id}/secondary_dns/incoming': 'zoneWrite',
  'put /zones/{zone_id}/secondary_dns/incoming': 'zoneWrite',
  'delete /zones/{zone_id}/secondary_dns/incoming': 'zoneWrite',
  'get /zones/{zone_id}/secondary_dns/outgoing': 'zoneRead',
  'post /zones/{zone_id}/secondary_dns/outgoing': 'zoneWrite',
  'put /zones/{zone_id}/secondary_dns/outgoing': 'zoneWrite',
  'delete /zones/{zone_id}/secondary_dns/outgoing': 'zoneWrite',
  'post /zones/{zone_id}/secondary_dns/outgoing/enable': 'zoneWrite',
  'post /zones/{zone_id}/secondary_dns/outgoing/disable': 'zoneWrite',
  'get /zones/{zone_id}/secondary_dns/outgoing/status': 'zoneRead',
  'post /zones/{zone_id}/secondary_dns/outgoing/force_notify': 'zoneWrite',
  'post /zones/{zone_id}/secondary_dns/force_axfr': 'zoneWrite',
  'post /dns_transfer': 'transferRelay',
  'post /dns_notify': 'transferRelay',
}

const UNAUTHENTICATED: Caller[] = ['none', 'invalid', 'expired', 'revoked']

/** The status a caller must get from a route with this access rule. */
function expected(access: Access, caller: Caller): number {
  if (access === 'public') return 200
  if (UNAUTHENTICATED.includes(caller)) return 403
  switch (access) {
    case 'anyToken':
    case 'listFiltered':
      return 200
    case 'zoneRead':
    case 'accountDnsRead':
      return caller === 'readOnly' ? 200 : 403
    case 'accountRead':
      return caller === 'otherAccount' ? 404 : 200
    case 'zoneWrite':
    case 'accountWrite':
    case 'accountTokens':
    case 'accountDnsWrite':
    case 'admin':
    case 'transferRelay':
      return 403
  }
}

/** Well-formed bodies, so that only authorization decides a write's answer. */
function bodyFor(key: string, zoneName: string): { body?: BodyInit; type?: string } {
  const json = (v: unknown) => ({ body: JSON.stringify(v), type: 'application/json' })
  const record = { type: 'A', name: 'matrix', content: '192.0.2.99', ttl: 300 }
  const policies = [
    {
      permission_groups: [{ name: 'DNS Read' }],
      resources: { [`com.cloudflare.api.account.${DEFAULT_ACCOUNT}`]: '*' },
    },
  ]
  switch (key) {
    case 'post /accounts':
    case 'put /accounts/{account_id}':
      return json({ name: 'matrix' })
    case 'post /accounts/{account_id}/tokens':
    case 'post /user/tokens':
      return json({ name: 'matrix', policies })
    case 'post /zones':
      return json({ name: `matrix-new-${Date.now()}.example`, account: { id: DEFAULT_ACCOUNT } })
    case 'patch /zones/{zone_id}':
      return json({ paused: false })
    case 'patch /zones/{zone_id}/dns_settings':
      return json({ ns_ttl: 3600 })
    case 'patch /zones/{zone_id}/dnssec':
      return json({ status: 'active' })
    case 'post /zones/{zone_id}/dns_records':
    case 'put /zones/{zone_id}/dns_records/{record_id}':
    case 'patch /zones/{zone_id}/dns_records/{record_id}':
      return json(record)
    case 'put /accounts/{account_id}/secondary_dns/catalog':
      return json({ name: 'matrix-catalog.example.net', peers: [] })
    case 'post /zones/{zone_id}/dns_records/batch':
      return json({ posts: [record] })
    case 'post /zones/{zone_id}/dns_records/import': {
      const form = new FormData()
      form.append('file', `$ORIGIN ${zoneName}.\nmatrix 300 IN A 192.0.2.98\n`)
      return { body: form }
    }
    default:
      return {}
  }
}

const tokens = {} as Record<Caller, string | null>
const params = {} as Record<string, string>
let zoneName = ''

async function mint(policies: unknown[]): Promise<{ id: string; value: string }> {
  const res = await api('POST', '/user/tokens', { name: 'matrix', policies })
  if (res.status !== 200) throw new Error(`token create failed: ${JSON.stringify(res.body)}`)
  return { id: res.body.result.id, value: res.body.result.value }
}

const all = ['Zone Read', 'Zone Write', 'DNS Read', 'DNS Write', 'API Tokens Write'].map(
  (name) => ({ name })
)

beforeAll(async () => {
  const target = await createZone('matrix')
  const other = await createZone('matrix-other')
  zoneName = target.name
  const record = await api('POST', `/zones/${target.id}/dns_records`, {
    type: 'TXT',
    name: 'kept',
    content: 'matrix',
  })
  const otherAccount = (await api('POST', '/accounts', { name: `matrix-other-${Date.now()}` })).body
    .result.id as string
  const account = (id: string) => `com.cloudflare.api.account.${id}`
  const readOnly = await mint([
    {
      permission_groups: [{ name: 'DNS Read' }, { name: 'Zone Read' }],
      resources: { [account(DEFAULT_ACCOUNT)]: '*' },
    },
  ])
  // API Tokens Write applies to accounts only: a zone resource takes the zone groups.
  const otherZone = await mint([
    {
      permission_groups: all.filter((g) => g.name !== 'API Tokens Write'),
      resources: { [`com.cloudflare.api.account.zone.${other.id}`]: '*' },
    },
  ])
  const otherAcct = await mint([
    { permission_groups: all, resources: { [account(otherAccount)]: '*' } },
  ])
  const expired = await mint([
    { permission_groups: all, resources: { [account(DEFAULT_ACCOUNT)]: '*' } },
  ])
  const revoked = await mint([
    { permission_groups: all, resources: { [account(DEFAULT_ACCOUNT)]: '*' } },
  ])
  await env.DB.prepare(`UPDATE api_tokens SET expires_on = '2020-01-01T00:00:00Z' WHERE id = ?1`)
    .bind(expired.id)
    .run()
  await env.DB.prepare(`UPDATE api_tokens SET status = 'disabled' WHERE id = ?1`)
    .bind(revoked.id)
    .run()
  Object.assign(tokens, {
    none: null,
    invalid: 'not-a-real-token-0123456789',
    expired: expired.value,
    revoked: revoked.value,
    readOnly: readOnly.value,
    otherZone: otherZone.value,
    otherAccount: otherAcct.value,
  })
  Object.assign(params, {
    zone_id: target.id,
    record_id: record.body.result.id,
    account_id: DEFAULT_ACCOUNT,
    token_id: readOnly.id,
    tag: '1',
    ...(await transferParams(target)),
  })
})

/**
 * A TSIG key, peer and ACL of the account, its catalog, the target zone's outgoing configuration, and a
 * secondary zone with an incoming configuration: what the secondary-DNS reads find.
 */
async function transferParams(target: {
  id: string
  name: string
}): Promise<Record<string, string>> {
  const base = `/accounts/${DEFAULT_ACCOUNT}/secondary_dns`
  const secret = btoa('matrix-secret-of-16-bytes')
  const tsig = await api('POST', `${base}/tsigs`, {
    name: `matrix-${Date.now()}`,
    algo: 'hmac-sha256',
    secret,
  })
  const peer = await api('POST', `${base}/peers`, { name: 'matrix' })
  const acl = await api('POST', `${base}/acls`, { name: 'matrix', ip_range: '192.0.2.0/24' })
  await api('PUT', `${base}/catalog`, { name: 'matrix-catalog.example.net', peers: [] })
  await api('POST', `/zones/${target.id}/secondary_dns/outgoing`, { name: target.name, peers: [] })
  const name = `matrix-secondary-${Date.now()}.example`
  const secondary = await api('POST', '/zones', {
    name,
    account: { id: DEFAULT_ACCOUNT },
    type: 'secondary',
  })
  const zoneId = secondary.body.result.id as string
  await api('POST', `/zones/${zoneId}/secondary_dns/incoming`, {
    name,
    peers: [peer.body.result.id],
    auto_refresh_seconds: 3600,
  })
  return {
    tsig_id: tsig.body.result.id,
    peer_id: peer.body.result.id,
    acl_id: acl.body.result.id,
    secondary_zone_id: zoneId,
  }
}

/** Routes of the document the worker serves (the same builder answers /client/v4/openapi.json). */
function documentedRoutes(): string[] {
  const doc = openApiDocument() as { paths: Record<string, Record<string, unknown>> }
  return Object.entries(doc.paths).flatMap(([path, ops]) =>
    Object.keys(ops).map((m) => `${m} ${path}`)
  )
}

let clients = 0

async function ask(key: string, caller: Caller): Promise<{ status: number; text: string }> {
  const [method, template] = key.split(' ') as [string, string]
  // Incoming transfers are configured on secondary zones: those routes ask the secondary zone.
  const zoneParams = /\/secondary_dns\/(incoming|force_axfr)/.test(template)
    ? { ...params, zone_id: params.secondary_zone_id! }
    : params
  const path = template.replace(/\{(\w+)\}/g, (_, p: string) => zoneParams[p] ?? `missing-${p}`)
  const { body, type } = bodyFor(key, zoneName)
  // Each request comes from a client address of its own: the failed-authentication limiter (tested
  // on its own) would otherwise refuse the matrix's later rows from one shared address.
  const headers: Record<string, string> = {
    'cf-connecting-ip': `2001:db8::${(++clients).toString(16)}`,
  }
  if (type) headers['content-type'] = type
  if (tokens[caller] !== null) headers.authorization = `Bearer ${tokens[caller]}`
  const res: Response = await (exports as any).default.fetch(`http://localhost/client/v4${path}`, {
    method: method.toUpperCase(),
    headers,
    body,
  })
  return { status: res.status, text: await res.text() }
}

describe('authorization matrix from the OpenAPI document', () => {
  const routes = documentedRoutes()

  it('has an access rule for every documented route, and no rule for a route not documented', async () => {
    const served = await (
      await (exports as any).default.fetch('http://localhost/client/v4/openapi.json')
    ).json()
    expect(served.paths).toEqual((openApiDocument() as { paths: unknown }).paths)
    expect(
      routes.filter((r) => !(r in ACCESS)),
      'documented routes without an access rule'
    ).toEqual([])
    expect(
      Object.keys(ACCESS).filter((r) => !routes.includes(r)),
      'access rules for routes not documented'
    ).toEqual([])
  })

  it.each(routes)('%s answers each caller as its access rule says', async (key) => {
    const access = ACCESS[key]
    expect(access, `no access rule for ${key}`).toBeDefined()
    const got: Record<string, number> = {}
    const want: Record<string, number> = {}
    for (const caller of CALLERS) {
      const res = await ask(key, caller)
      got[caller] = res.status
      want[caller] = expected(access!, caller)
      if (want[caller]! >= 400) expect(res.text, `${key} as ${caller}`).toContain('"success":false')
    }
    expect(got).toEqual(want)
  })
})
