/** @module The zone settings form: its fields, API settings ⇄ form values, errors placed on fields. */

export const FIELDS = [
  { key: 'soa.mname', label: 'Primary name server (MNAME)', kind: 'text' },
  {
    key: 'soa.rname',
    label: 'Responsible mailbox (RNAME)',
    kind: 'text',
    hint: 'e.g. hostmaster.example.com',
  },
  { key: 'soa.refresh', label: 'Refresh (s)', kind: 'number', min: 0 },
  { key: 'soa.retry', label: 'Retry (s)', kind: 'number', min: 0 },
  { key: 'soa.expire', label: 'Expire (s)', kind: 'number', min: 0 },
  { key: 'soa.min_ttl', label: 'Negative-caching TTL (SOA minimum)', kind: 'number', min: 0 },
  { key: 'soa.ttl', label: 'SOA record TTL (s)', kind: 'number', min: 0 },
  { key: 'ns_ttl', label: 'NS record TTL (s)', kind: 'number', min: 0 },
  {
    key: 'proxy_addresses.ipv4',
    label: 'Proxy IPv4 addresses',
    kind: 'text',
    hint: 'comma-separated; proxied A records answer these',
  },
  {
    key: 'proxy_addresses.ipv6',
    label: 'Proxy IPv6 addresses',
    kind: 'text',
    hint: 'comma-separated; proxied AAAA records answer these',
  },
]

export function toValues(s) {
  const v = {
    ns_ttl: String(s.ns_ttl),
    'proxy_addresses.ipv4': s.proxy_addresses.ipv4.join(', '),
    'proxy_addresses.ipv6': s.proxy_addresses.ipv6.join(', '),
  }
  for (const [k, x] of Object.entries(s.soa)) v[`soa.${k}`] = String(x)
  return v
}

export function toBody(v) {
  const list = (s) =>
    s
      .split(',')
      .map((x) => x.trim())
      .filter(Boolean)
  const soa = {}
  for (const f of FIELDS.filter((f) => f.key.startsWith('soa.')))
    soa[f.key.slice(4)] = f.kind === 'number' ? Number(v[f.key]) : v[f.key].trim()
  return {
    soa,
    ns_ttl: Number(v.ns_ttl),
    proxy_addresses: {
      ipv4: list(v['proxy_addresses.ipv4']),
      ipv6: list(v['proxy_addresses.ipv6']),
    },
  }
}

/** The field a validation message is about: the API prefixes it with the field's path (`soa.refresh: …`). */
export function settingsErrors(failure) {
  const out = {}
  for (const e of failure.errors) {
    const f = FIELDS.find(
      (f) =>
        e.message === f.key ||
        e.message.startsWith(`${f.key}:`) ||
        e.message.startsWith(`${f.key}.`)
    )
    const key = f ? f.key : '_form'
    out[key] = out[key] ? `${out[key]}; ${e.message}` : e.message
  }
  return out
}
