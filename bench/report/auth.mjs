/** @module BENCHMARKS.md: authenticated requests while a 100,000-change commit runs. */
import { ms2, n0, verdict } from './format.mjs'

const cells = (s) =>
  `${n0(s.auth.n)} | ${ms2(s.auth.median)} | ${ms2(s.auth.p99)} | ${ms2(s.auth.max)} | ${ms2(s.wall.median)} | ${ms2(s.wall.p99)} | ${ms2(s.wall.max)}`

export function renderAuth(a, md, targets) {
  md.push('## Authentication during a long commit', '')
  md.push(
    `One API token minted through the API (DNS Read, Zone Read) sends \`GET /client/v4${a.path}\` every ${a.intervalMs} ms, open loop (each request timed on its own, whatever the others are doing), while a batch of ${n0(a.changes)} changes is in flight on the account's home database: posts, then deletes of the same records. Accounts, tokens and the zone share the one local D1 database, which runs one query at a time, as every D1 database does. **Token lookup** is the API's own time to find the token (Server-Timing \`auth\`: hashing it, then the isolate's cache of verified tokens or a read of the home database; workerd's clock moves only across I/O and in whole milliseconds, so a lookup served from memory shows 0 or 1 ms, more only when the thread ran other work while the lookup awaited its hash). **Whole request** is the time from this process to the response. **First use** is a token's first request in the isolate (a token it has not seen, as in a new isolate): it reads the home database and waits for whatever runs there, as every request did before the cache.`,
    ''
  )
  md.push(
    '| while | requests | token lookup p50 | p99 | max | whole request p50 | p99 | max |',
    '|---|---:|---:|---:|---:|---:|---:|---:|'
  )
  md.push(`| idle | ${cells(a.idle)} |`)
  for (const c of a.commits) {
    md.push(`| ${n0(c.changes)} ${c.kind} (batch ${ms2(c.wallMs)}) | ${cells(c.warm)} |`)
    md.push(`| … first use of a token | ${cells(c.firstUse)} |`)
  }
  md.push(`| both commits | ${cells(a.during)} |`, '')
  md.push(
    "Under Miniflare every worker, Durable Object and the D1 simulator's SQLite share one workerd thread, so while the batch's body is parsed, its plan computed, its write executed by SQLite and its names built, no other request runs at all: the whole-request figures measure that thread, not authentication. Deployed, D1 runs outside the isolate and a request whose token is in the cache does not wait for it; its token lookup is the figure that carries over.",
    ''
  )
  if (a.load)
    md.push(
      `Load average (1 min) on this machine: ${a.load.start.toFixed(1)} when the section started, ${a.load.end.toFixed(1)} when it ended${a.load.start > 1 || a.load.end > 1 ? ': other work shared the CPUs during this measurement' : ''}.`,
      ''
    )
  targets.push([
    'Auth',
    'API requests authenticate within p99 ≤ 50 ms while a 100,000-change commit runs',
    `token lookup p99 ${ms2(a.during.auth.p99)}, max ${ms2(a.during.auth.max)} (${n0(a.during.auth.n)} requests over two commits); a token's first use in an isolate: p50 ${ms2(a.firstUse.auth.median)}, max ${ms2(a.firstUse.auth.max)}; whole request p99 ${ms2(a.during.wall.p99)} (one workerd thread runs the commit too)`,
    a.changes >= 100_000 ? `${verdict(a.during.auth.p99 <= 50)} (token lookup)` : '(quick run)',
  ])
}
