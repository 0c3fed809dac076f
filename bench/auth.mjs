/**
 * @module Authentication while a 100,000-change commit runs on the home database (issue "Production,
 * second round"): authenticated requests sent at a fixed rate, open loop, before and during two
 * 100,000-change batches (posts, then deletes), each request timed on its own. The token is a real
 * one minted through the API (the bench stack's dev token is checked without the database), so every
 * request goes through the token cache, and a token's first request reads the home database.
 */
import os from 'node:os'
import { aRecord } from './lib/api.mjs'
import { waitBuilt } from './lib/propagation.mjs'
import { summarize } from './lib/stats.mjs'

/** One request every this many ms, whatever the previous ones are doing (no coordinated omission). */
const INTERVAL_MS = 20
/** Tokens used once each during a commit: the first request of a token in an isolate. */
const FIRST_USE_TOKENS = 12
const IDLE_MS = 3_000

async function mintToken(api, accountId) {
  const { result } = await api.call('POST', `/accounts/${accountId}/tokens`, {
    name: 'bench-auth',
    policies: [
      {
        permission_groups: [{ name: 'DNS Read' }, { name: 'Zone Read' }],
        resources: { [`com.cloudflare.api.account.${accountId}`]: '*' },
      },
    ],
  })
  return result.value
}

/**
 * One authenticated request: its latency from this process, and the API's time in the token
 * lookup (Server-Timing `auth`) in ms. Throws on anything but 200.
 */
async function timed(base, token, path) {
  const t0 = performance.now()
  const res = await fetch(`${base}/client/v4${path}`, {
    headers: { authorization: `Bearer ${token}` },
  })
  await res.arrayBuffer()
  if (res.status !== 200) throw new Error(`GET ${path} → ${res.status}`)
  const wall = performance.now() - t0
  const auth = /auth;dur=([0-9.]+)/.exec(res.headers.get('server-timing') ?? '')
  return { wall, auth: auth ? Number(auth[1]) : NaN }
}

const collect = () => ({ wall: [], auth: [] })
const push = (into) => (t) => {
  into.wall.push(t.wall)
  into.auth.push(t.auth)
}
/** Percentiles of both times, without the samples (the results file keeps only the figures). */
const summary = (c) => {
  const { samples: _w, ...wall } = summarize(c.wall)
  const { samples: _a, ...auth } = summarize(c.auth)
  return { wall, auth }
}

/**
 * Sends `GET path` with `token` every INTERVAL_MS until `until` settles, and `firstUse` tokens one
 * by one spread over `spreadMs`; returns every latency.
 */
async function probe(base, token, path, until, firstUse = [], spreadMs = 0) {
  const warm = collect()
  const cold = collect()
  let done = false
  until.finally(() => (done = true)).catch(() => {})
  const inFlight = []
  const firstEvery = firstUse.length > 0 ? Math.max(INTERVAL_MS, spreadMs / firstUse.length) : 0
  let nextFirst = performance.now() + firstEvery / 2
  while (!done) {
    inFlight.push(timed(base, token, path).then(push(warm)))
    if (firstUse.length > 0 && performance.now() >= nextFirst) {
      inFlight.push(timed(base, firstUse.shift(), path).then(push(cold)))
      nextFirst += firstEvery
    }
    await new Promise((resolve) => setTimeout(resolve, INTERVAL_MS))
  }
  await Promise.all(inFlight)
  return { warm, cold }
}

export async function runAuthBench({ api, stack, quick, log }) {
  const loadStart = os.loadavg()[0]
  const n = quick ? 10_000 : 100_000
  const accountId = (await api.call('GET', '/accounts')).result[0].id
  // The highest per-token budget: the probe's rate stays inside it.
  await api.call('PUT', `/accounts/${accountId}`, { settings: { api_rate_limit: 60_000 } })
  const zone = await api.createZone(`bench-auth-${Date.now().toString(36)}.example`)
  const token = await mintToken(api, accountId)
  const path = '/user/tokens/verify'
  for (let i = 0; i < 20; i++) await timed(stack.url, token, path)

  const idle = await probe(
    stack.url,
    token,
    path,
    new Promise((resolve) => setTimeout(resolve, IDLE_MS))
  )
  log(`auth: idle p50 ${summarize(idle.warm.wall).median.toFixed(1)} ms`)

  const commits = []
  for (const kind of ['posts', 'deletes']) {
    const firstUse = []
    for (let i = 0; i < FIRST_USE_TOKENS; i++) firstUse.push(await mintToken(api, accountId))
    await waitBuilt(api, zone.id, { everyMs: 20 })
    const body =
      kind === 'posts'
        ? { posts: Array.from({ length: n }, (_, i) => aRecord('auth', i)) }
        : { deletes: commits[0].ids.map((id) => ({ id })) }
    const t0 = performance.now()
    const batch = api.batch(zone.id, body)
    // Spread the first uses over the batch's expected length: the last one may land after it.
    const during = await probe(stack.url, token, path, batch, firstUse, quick ? 500 : 3_000)
    const b = await batch
    const wallMs = performance.now() - t0
    commits.push({
      kind,
      changes: n,
      wallMs,
      serverMs: b.serverMs,
      warm: summary(during.warm),
      firstUse: summary(during.cold),
      ids: kind === 'posts' ? b.result.posts.map((r) => r.id) : undefined,
      raw: during,
    })
    const w = summary(during.warm)
    log(
      `auth: ${kind} of ${n.toLocaleString('en-US')} took ${(wallMs / 1000).toFixed(2)} s; ` +
        `${w.wall.n} requests during it: token lookup p99 ${w.auth.p99.toFixed(1)} ms, ` +
        `whole request p50 ${w.wall.median.toFixed(1)} ms, p99 ${w.wall.p99.toFixed(1)} ms`
    )
  }
  await waitBuilt(api, zone.id, { everyMs: 50 })
  const all = collect()
  const firstUse = collect()
  for (const c of commits) {
    all.wall.push(...c.raw.warm.wall)
    all.auth.push(...c.raw.warm.auth)
    firstUse.wall.push(...c.raw.cold.wall)
    firstUse.auth.push(...c.raw.cold.auth)
  }
  return {
    changes: n,
    intervalMs: INTERVAL_MS,
    path,
    idle: summary(idle.warm),
    during: summary(all),
    firstUse: summary(firstUse),
    commits: commits.map(({ ids, raw, ...c }) => c),
    load: { start: loadStart, end: os.loadavg()[0] },
  }
}
