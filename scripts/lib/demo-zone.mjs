/**
 * @module The demo zone: seeded on a first start (an empty local database), through the public
 * API like any client, in the default account.
 */
export const DEMO_ZONE = 'example.com'
/** The account every deployment starts with (migrations/0001_default_account.sql). */
const DEFAULT_ACCOUNT_ID = 'a0000000000000000000000000000001'

const DEMO_RECORDS = [
  { type: 'A', name: '@', content: '192.0.2.10', comment: 'apex web server' },
  { type: 'AAAA', name: '@', content: '2001:db8::10' },
  { type: 'A', name: 'www', content: '192.0.2.10', ttl: 300, tags: ['env:demo'] },
  { type: 'AAAA', name: 'www', content: '2001:db8::10', ttl: 300 },
  { type: 'CNAME', name: 'blog', content: 'www.example.com' },
  { type: 'MX', name: '@', content: 'mail.example.com', priority: 10 },
  { type: 'A', name: 'mail', content: '192.0.2.25' },
  { type: 'TXT', name: '@', content: 'v=spf1 mx -all' },
  { type: 'A', name: '*.apps', content: '192.0.2.80', comment: 'wildcard for tenant apps' },
  {
    type: 'SRV',
    name: '_sip._tcp',
    data: { priority: 10, weight: 5, port: 5060, target: 'sip.example.com' },
  },
  { type: 'A', name: 'sip', content: '192.0.2.50' },
  { type: 'CAA', name: '@', data: { flags: 0, tag: 'issue', value: 'letsencrypt.org' } },
  { type: 'NS', name: 'lab', content: 'ns1.lab.example.com' },
  { type: 'A', name: 'ns1.lab', content: '192.0.2.53' },
  { type: 'A', name: 'cdn', content: '198.51.100.7', proxied: true },
]

function client(base, token) {
  const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' }
  return async (method, path, body) => {
    const res = await fetch(`${base}/client/v4${path}`, {
      method,
      headers,
      body: body && JSON.stringify(body),
    })
    const json = await res
      .json()
      .catch(() => ({ success: false, errors: [{ message: `HTTP ${res.status}, not JSON` }] }))
    if (!json.success) throw new Error(`${method} ${path}: ${JSON.stringify(json.errors)}`)
    return json.result
  }
}

/** The demo zone if it exists (in any account), else null. */
export async function findDemoZone(base, token) {
  const found = await client(base, token)('GET', `/zones?name=${DEMO_ZONE}`)
  return found[0] ?? null
}

/**
 * Creates the demo zone and its records in the default account (the caller decides that this is a
 * first start). An existing demo zone is returned as it is.
 */
export async function seedDemoZone(base, token) {
  const call = client(base, token)
  const existing = await findDemoZone(base, token)
  if (existing) return { zone: existing, created: false }
  const zone = await call('POST', '/zones', {
    name: DEMO_ZONE,
    account: { id: DEFAULT_ACCOUNT_ID },
  })
  await call('POST', `/zones/${zone.id}/dns_records/batch`, { posts: DEMO_RECORDS })
  return { zone, created: true }
}
