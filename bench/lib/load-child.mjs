/**
 * @module Load generator process: `node load-child.mjs <config.json>` runs autocannon against one
 * origin with a pool of request paths (picked at random per request) or, for pools too large to
 * pass, a generator spec (`gen`, bench/lib/namegen.mjs: Zipf or uniform names over a whole zone,
 * encoded like bench/lib/dnswire.mjs `wirePath`), records every response time
 * at microsecond resolution (autocannon's own histogram rounds to whole milliseconds) and prints
 * one JSON summary on stdout. Runs in its own process so the client never shares an event loop
 * with Miniflare's Node side. `h2: true` (servers that speak only HTTP/2, like BIND's DoH) uses
 * node:http2 instead, with the same path choice, timing and summary.
 */
import { readFileSync } from 'node:fs'
import http2 from 'node:http2'
import autocannon from 'autocannon'
import { pathSampler, seededRandom } from './namegen.mjs'

const config = JSON.parse(readFileSync(process.argv[2], 'utf8'))
const {
  url,
  paths,
  gen,
  connections = 32,
  duration = 10,
  rate,
  headers = {},
  pipelining = 1,
  seed = 1,
  h2 = false,
} = config

// Reproducible choice of paths.
const random = seededRandom(seed)
const nextPath = gen ? pathSampler(gen, random) : () => paths[Math.floor(random() * paths.length)]

let times = new Float64Array(1 << 16)
let count = 0
const record = (ms) => {
  if (count === times.length) {
    const next = new Float64Array(times.length * 2)
    next.set(times)
    times = next
  }
  times[count++] = ms
}

async function runAutocannon() {
  const instance = autocannon({
    url,
    connections,
    duration,
    pipelining,
    headers,
    ...(rate ? { overallRate: rate } : {}),
    requests: [
      {
        method: 'GET',
        setupRequest(req) {
          req.path = nextPath()
          return req
        },
      },
    ],
  })
  instance.on('response', (_client, statusCode, _bytes, responseTime) => {
    if (statusCode >= 200 && statusCode < 300) record(responseTime)
  })
  const r = await instance
  return {
    total: r.requests.total,
    durationS: r.duration,
    errors: r.errors,
    timeouts: r.timeouts,
    non2xx: r.non2xx,
  }
}

/** HTTP/2: `connections` streams in flight over a few sessions (closed loop), or a fixed rate. */
async function runH2() {
  const sessions = Array.from({ length: Math.min(4, connections) }, () => http2.connect(url))
  await Promise.all(
    sessions.map(
      (s) => new Promise((resolve, reject) => s.once('connect', resolve).once('error', reject))
    )
  )
  const started = performance.now()
  const end = started + duration * 1000
  let total = 0
  let errors = 0
  let non2xx = 0
  let inflight = 0
  let next = 0
  const one = () =>
    new Promise((resolve) => {
      const t0 = performance.now()
      inflight++
      total++
      let status = 0
      const req = sessions[next++ % sessions.length].request({ ':path': nextPath(), ...headers })
      req.on('response', (h) => (status = h[':status']))
      req.on('data', () => {})
      req.on('end', () => {
        inflight--
        if (status >= 200 && status < 300) record(performance.now() - t0)
        else non2xx++
        resolve()
      })
      req.on('error', () => {
        inflight--
        errors++
        resolve()
      })
      req.end()
    })
  if (rate) {
    const interval = 1000 / rate
    let due = started
    while (performance.now() < end) {
      while (due <= performance.now()) {
        if (inflight < 1000) one()
        due += interval
      }
      await new Promise((r) => setTimeout(r, Math.max(0, due - performance.now())))
    }
  } else {
    const loop = async () => {
      while (performance.now() < end) await one()
    }
    await Promise.all(Array.from({ length: connections }, loop))
  }
  while (inflight > 0) await new Promise((r) => setTimeout(r, 5))
  const durationS = (performance.now() - started) / 1000
  for (const s of sessions) s.close()
  return { total, durationS, errors, timeouts: 0, non2xx }
}

const result = h2 ? await runH2() : await runAutocannon()
const sorted = times.subarray(0, count).sort()
const q = (p) =>
  count === 0 ? null : sorted[Math.min(count - 1, Math.floor(p * (count - 1) + 0.5))]
process.stdout.write(
  JSON.stringify({
    rps: count / result.durationS,
    completed: count,
    total: result.total,
    durationS: result.durationS,
    p50: q(0.5),
    p90: q(0.9),
    p99: q(0.99),
    max: q(1),
    errors: result.errors,
    timeouts: result.timeouts,
    non2xx: result.non2xx,
    connections,
    rate: rate ?? null,
  })
)
