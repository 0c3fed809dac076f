/**
 * The DNS front under a 60-second UDP flood on loopback: the bundled front (the file the systemd
 * unit and the container run, started with its settings in the environment) in its own process,
 * a flood from another process (random names and one repeated name, as fast as it sends), and a
 * well-behaved client on another /24 of the loopback network. Each of the client's queries is
 * answered within a second, and the front's resident memory stays under RSS_BOUND throughout.
 */
import { spawn, type ChildProcess } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
// @ts-expect-error plain ESM module
import { bundleDnsFront } from './dns-front-bundle.mjs'
import { startDohStub, type DohStub } from './doh-stub.ts'
import { decode, query, udpAsk } from './dns-client.ts'

const FLOOD_SECONDS = 60
/** The front's resident set size never exceeds this (its caches are set small below). */
const RSS_BOUND = 192 * 1024 * 1024

let stub: DohStub
let front: ChildProcess
let port: number
const dir = mkdtempSync(path.join(tmpdir(), 'edgedns-dns-front-'))

beforeAll(async () => {
  stub = await startDohStub()
  const bundle = await bundleDnsFront(path.join(dir, 'dns-front.mjs'))
  front = spawn(process.execPath, [bundle], {
    env: {
      ...process.env,
      DNS_FRONT_DOH: stub.base,
      DNS_FRONT_HOST: '127.0.0.1',
      DNS_FRONT_PORT: '0',
      DNS_FRONT_CACHE_ENTRIES: '5000',
      DNS_FRONT_CACHE_BYTES: String(2 * 1024 * 1024),
      DNS_FRONT_RRL_BUCKETS: '5000',
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  })
  port = await new Promise<number>((resolve, reject) => {
    front.once('exit', (code) => reject(new Error(`the front exited (${code})`)))
    front.stdout!.on('data', (c: Buffer) => {
      const m = /(\d+)(?:;|\n|$)/.exec(c.toString())
      if (m) resolve(Number(m[1]))
    })
  })
})

afterAll(() => {
  front?.kill()
  stub?.close()
  rmSync(dir, { recursive: true, force: true, maxRetries: 5 })
})

function rss(pid: number): number {
  const m = /^VmRSS:\s+(\d+) kB$/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))
  return Number(m![1]) * 1024
}

/** The answer to one query, asked again every 200 ms as a stub resolver would, within `ms`. */
async function askWithin(name: string, ms: number): Promise<{ answer: Buffer | null; ms: number }> {
  const started = Date.now()
  const q = query(name)
  while (Date.now() - started < ms) {
    const left = ms - (Date.now() - started)
    const answer = await udpAsk(port, q, { from: '127.0.2.1', timeoutMs: Math.min(200, left) })
    if (answer) return { answer, ms: Date.now() - started }
  }
  return { answer: null, ms: Date.now() - started }
}

describe('the DNS front under a UDP flood', () => {
  it(
    `answers a well-behaved client within a second, memory bounded, through ${FLOOD_SECONDS} s of flood`,
    async () => {
      const flood = spawn(
        process.execPath,
        [path.join(import.meta.dirname, 'udp-flood.mjs'), String(port), String(FLOOD_SECONDS)],
        { stdio: ['ignore', 'pipe', 'inherit'] }
      )
      let floodOut = ''
      flood.stdout!.on('data', (c: Buffer) => (floodOut += c.toString()))
      const flooding = new Promise((resolve) => flood.once('exit', resolve))
      const until = Date.now() + FLOOD_SECONDS * 1000
      const slow: string[] = []
      let asked = 0
      let maxRss = 0
      let i = 0
      while (Date.now() < until) {
        // short.test has a TTL of 1 s: its answers keep coming from the upstream, not the cache.
        const name = i++ % 2 ? 'www.test' : 'short.test'
        const { answer, ms } = await askWithin(name, 1000)
        asked += 1
        if (!answer || decode(answer).answers?.length !== 1) slow.push(`${name}: ${ms} ms`)
        maxRss = Math.max(maxRss, rss(front.pid!))
        await new Promise((r) => setTimeout(r, 200))
      }
      await flooding
      const { sent } = JSON.parse(floodOut)
      console.log(
        `flood: ${sent} queries sent; client: ${asked} asked, ${slow.length} late; front RSS max ${(maxRss / 2 ** 20).toFixed(1)} MiB`
      )
      expect(sent).toBeGreaterThan(FLOOD_SECONDS * 1000)
      expect(slow).toEqual([])
      expect(maxRss).toBeLessThan(RSS_BOUND)
    },
    (FLOOD_SECONDS + 30) * 1000
  )
})
