/**
 * `npx wrangler dev` at the repository root, as a user types it, on an empty state directory and
 * with no other step: the worker applies the bundled migrations itself (local development only), so
 * the API, concurrent first requests included, and `/dns-query` answer 200. Afterwards wrangler's
 * own `d1 migrations apply` finds nothing left to apply: both keep the same bookkeeping. Requests
 * not addressed to a loopback host (DNS rebinding) are refused, the dev token's included.
 */
import { spawn } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import http from 'node:http'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { BUNDLED_MIGRATIONS } from '../../workers/api/src/db/bundled-migrations.ts'
// @ts-expect-error plain ESM helper shared with `pnpm dev`
import { applyMigrations, freePort, ROOT, stopGroup } from '../../scripts/lib/stack.mjs'

const WRANGLER = path.join(ROOT, 'node_modules/.bin/wrangler')
const stateDir = mkdtempSync(path.join(tmpdir(), 'edgedns-root-dev-'))
let group: number | null = null

afterAll(async () => {
  if (group !== null) await stopGroup(group)
  rmSync(stateDir, { recursive: true, force: true })
})

async function dohStatus(base: string): Promise<number> {
  const res = await fetch(`${base}/dns-query?name=www.example.com&type=A`, {
    headers: { accept: 'application/dns-json' },
  })
  await res.arrayBuffer()
  return res.status
}

/** GET `path` with the dev token, addressed (Host) to `host`. */
function hostRequest(
  port: number,
  path: string,
  host: string
): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = http.get(
      {
        host: '127.0.0.1',
        port,
        path,
        headers: { host, authorization: 'Bearer dev-token', accept: 'application/dns-json' },
      },
      (res) => {
        let body = ''
        res.setEncoding('utf8')
        res.on('data', (d) => (body += d))
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body }))
      }
    )
    req.on('error', reject)
  })
}

describe('npx wrangler dev at the repository root', () => {
  it('answers /client/v4/zones and /dns-query on an empty state directory with no migration step', async () => {
    const port = await freePort()
    const child = spawn(
      WRANGLER,
      ['dev', '--ip', '127.0.0.1', '--port', String(port), '--persist-to', stateDir],
      {
        cwd: ROOT,
        detached: true,
        stdio: ['ignore', 'pipe', 'pipe'],
        env: { ...process.env, WRANGLER_SEND_METRICS: 'false' },
      }
    )
    group = child.pid!
    let log = ''
    child.stdout!.on('data', (d) => (log += d))
    child.stderr!.on('data', (d) => (log += d))
    const base = `http://127.0.0.1:${port}`

    // /dns-query reads KV only: it answers before anything touched the database.
    const until = Date.now() + 120_000
    let status = 0
    while (status !== 200 && Date.now() < until && child.exitCode === null) {
      status = await dohStatus(base).catch(() => 0)
      if (status !== 200) await new Promise((r) => setTimeout(r, 250))
    }
    expect(status, log).toBe(200)

    // The first API requests arrive together on the unmigrated database.
    const first = await Promise.all(
      Array.from({ length: 8 }, () =>
        fetch(`${base}/client/v4/zones`, { headers: { authorization: 'Bearer dev-token' } }).then(
          async (r) => ({ status: r.status, body: (await r.json()) as any })
        )
      )
    )
    expect(
      first.map((r) => r.status),
      log
    ).toEqual(Array(8).fill(200))
    expect(first[0]!.body).toMatchObject({ success: true, result: [] })
    expect(log).toContain(
      `applied ${BUNDLED_MIGRATIONS.length} D1 migration(s) to the local database`
    )

    // The default account exists (a migration seeds it): a zone can be created in it.
    const zone = (await (
      await fetch(`${base}/client/v4/zones`, {
        method: 'POST',
        headers: { authorization: 'Bearer dev-token', 'content-type': 'application/json' },
        body: JSON.stringify({ name: 'root-dev.example' }),
      })
    ).json()) as any
    expect(zone.success, JSON.stringify(zone)).toBe(true)

    // A page that rebinds its own name to 127.0.0.1 sends that name as Host: it gets nothing.
    const local = await hostRequest(port, '/client/v4/local_dev', `127.0.0.1:${port}`)
    expect(local.status).toBe(200)
    expect(local.body).toContain('dev-token')
    for (const p of [
      '/client/v4/local_dev',
      '/client/v4/zones',
      '/dns-query?name=root-dev.example&type=SOA',
    ]) {
      const rebound = await hostRequest(port, p, `rebind.example:${port}`)
      expect({ p, status: rebound.status }).toEqual({ p, status: 403 })
      expect(rebound.body).not.toContain('dev-token')
    }

    await stopGroup(group)
    group = null
    expect(applyMigrations(stateDir)).toEqual([])
  }, 180_000)
})
