/**
 * @module Seeds the demo zone on first start, through the public API like any client.
 */
export const DEMO_ZONE = 'example.com'

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
  { type: 'SRV', name: '_sip._tcp', data: { priority: 10, weight: 5, port: 5060, target: 'sip.example.com' } },
  { type: 'A', name: 'sip', content: '192.0.2.50' },
  { type: 'CAA', name: '@', data: { flags: 0, tag: 'issue', value: 'letsencrypt.org' } },
  { type: 'NS', name: 'lab', content: 'ns1.lab.example.com' },
  { type: 'A', name: 'ns1.lab', content: '192.0.2.53' },
  { type: 'A', name: 'cdn', content: '198.51.100.7', proxied: true },
]

export async function ensureDemoZone(base, token) {
  const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' }
  const call = async (method, path, body) => {
    const res = await fetch(`${base}/client/v4${path}`, { method, headers, body: body && JSON.stringify(body) })
    const json = await res.json()
    if (!json.success) throw new Error(`${method} ${path}: ${JSON.stringify(json.errors)}`)
    return json.result
  }
  const found = await call('GET', `/zones?name=${DEMO_ZONE}`)
  if (found.length > 0) return { zone: found[0], created: false }
  const zone = await call('POST', '/zones', { name: DEMO_ZONE })
  await call('POST', `/zones/${zone.id}/dns_records/batch`, { posts: DEMO_RECORDS })
  return { zone, created: true }
}
