#!/usr/bin/env node
/**
 * `node bench/tools/batch-wall.mjs [records] [reps]`: starts the local stack as `pnpm dev` does
 * (wrangler dev, builder pacing on, its public front in between), creates a zone and posts
 * batches of `records` creates
 * (default 3,500), printing each batch's wall time (client round trip) beside its server time
 * (the handler's Server-Timing total). Stops the stack afterwards.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { applyMigrations, freePort, startStack } from '../../scripts/lib/stack.mjs'
import { startPublicFront } from '../../scripts/lib/public-front.mjs'

const records = Number(process.argv[2] ?? 3500)
const reps = Number(process.argv[3] ?? 5)
const token = 'wall-token'
const dir = mkdtempSync(path.join(tmpdir(), 'edgedns-wall-'))
applyMigrations(dir)
const stack = await startStack({ port: await freePort(), persistTo: dir, token, quiet: true })
const front = await startPublicFront({ target: stack.base, port: await freePort() })
const base = `http://127.0.0.1:${front.port}`
const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' }
const call = async (method, p, body) => {
  const t0 = performance.now()
  const res = await fetch(`${base}/client/v4${p}`, {
    method,
    headers,
    body: body && JSON.stringify(body),
  })
  const headersMs = performance.now() - t0
  const json = await res.json()
  if (process.env.VERBOSE) console.log(`  headers after ${headersMs.toFixed(0)} ms`)
  const wall = performance.now() - t0
  const server = Number(
    /total;dur=([\d.]+)/.exec(res.headers.get('server-timing') ?? '')?.[1] ?? NaN
  )
  if (!json.success) throw new Error(JSON.stringify(json.errors))
  return { result: json.result, wall, server }
}
try {
  const { result: zone } = await call('POST', '/zones', {
    name: `wall-${Date.now().toString(36)}.example`,
    account: { id: 'a0000000000000000000000000000001' },
  }).catch(async () => call('POST', '/zones', { name: `wall-${Date.now().toString(36)}.example` }))
  const rows = []
  for (let r = 0; r < reps; r++) {
    const posts = Array.from({ length: records }, (_, i) => ({
      type: 'A',
      name: `w${r}-${i}`,
      content: `192.0.2.${i % 250}`,
    }))
    const { wall, server } = await call('POST', `/zones/${zone.id}/dns_records/batch`, { posts })
    rows.push({ wall, server })
    console.log(
      `batch ${r + 1}: wall ${wall.toFixed(0)} ms, server ${server.toFixed(0)} ms, ratio ${(wall / server).toFixed(2)}`
    )
    await new Promise((res) => setTimeout(res, Number(process.env.GAP_MS ?? 1500)))
  }
  const med = (xs) => xs.sort((a, b) => a - b)[Math.floor(xs.length / 2)]
  console.log(
    JSON.stringify({
      records,
      wallMedianMs: med(rows.map((x) => x.wall)),
      serverMedianMs: med(rows.map((x) => x.server)),
    })
  )
} finally {
  front.close()
  stack.stop()
  rmSync(dir, { recursive: true, force: true })
}
