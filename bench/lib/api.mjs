/** @module A tiny API client for the benchmarks (loopback HTTP to Miniflare, no SDK overhead). */

export function apiClient(base, token) {
  async function call(method, path, body) {
    const res = await fetch(`${base}/client/v4${path}`, {
      method,
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    })
    const json = await res.json()
    if (!json.success)
      throw new Error(
        `${method} ${path} → ${res.status} ${JSON.stringify(json.errors).slice(0, 300)}`
      )
    return { result: json.result, headers: res.headers }
  }
  return {
    call,
    /** Server-side total of a write, from its Server-Timing header. */
    serverMs(headers) {
      const m = /total;dur=([0-9.]+)/.exec(headers.get('server-timing') ?? '')
      return m ? Number(m[1]) : NaN
    },
    /**
     * The commit instant of a write on this process's `performance.now()` scale: the API's wall
     * clock when D1 acknowledged the commit (x-edgedns-committed-at; the runtime shares this
     * machine's clock), moved onto the monotonic scale with the offset read now. NaN if absent.
     */
    committedAt(headers) {
      const at = Number(headers.get('x-edgedns-committed-at') ?? NaN)
      return at - (Date.now() - performance.now())
    },
    async createZone(name) {
      const accounts = (await call('GET', '/accounts')).result
      return (await call('POST', '/zones', { name, account: { id: accounts[0].id } })).result
    },
    async batch(zoneId, body) {
      const t0 = performance.now()
      const { result, headers } = await call('POST', `/zones/${zoneId}/dns_records/batch`, body)
      return {
        result,
        wallMs: performance.now() - t0,
        serverMs: this.serverMs(headers),
        committedAt: this.committedAt(headers),
        seq: Number(headers.get('x-edgedns-change-seq')),
      }
    },
  }
}

/** Record `i` of a reproducible data set: names and addresses depend only on the prefix and index. */
export function aRecord(prefix, i) {
  return {
    type: 'A',
    name: `${prefix}-${i}`,
    content: `10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}`,
    ttl: 300,
  }
}

export async function seedZone(
  api,
  zoneId,
  count,
  prefix = 'base',
  chunk = 50_000,
  onProgress = () => {}
) {
  for (let start = 0; start < count; start += chunk) {
    const posts = []
    for (let i = start; i < Math.min(count, start + chunk); i++) posts.push(aRecord(prefix, i))
    await api.batch(zoneId, { posts })
    onProgress(Math.min(count, start + chunk))
  }
}
