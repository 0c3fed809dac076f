/**
 * @module Runs one load test from a second process (bench/lib/load-child.mjs) and returns its
 * summary: achieved requests/s, latency percentiles (ms), errors. Every test targets loopback and
 * stops by itself after `duration` seconds (the child is killed if it overstays).
 */
import { execFile } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'

const CHILD = path.join(path.dirname(fileURLToPath(import.meta.url)), 'load-child.mjs')

/**
 * url: origin (http://127.0.0.1:port); paths: request paths to pick from at random, or gen: a
 * generator spec (bench/lib/namegen.mjs) the child draws paths from itself;
 * rate: fixed overall requests/s (omit for saturation); h2: speak HTTP/2 (prior knowledge).
 */
export async function runLoad({
  url,
  paths,
  gen,
  connections = 32,
  duration = 10,
  rate,
  headers,
  seed = 1,
  h2 = false,
}) {
  if (!/^http:\/\/(127\.0\.0\.1|localhost|\[::1\])[:/]/.test(url))
    throw new Error(`load tests target loopback only, not ${url}`)
  const dir = mkdtempSync(path.join(tmpdir(), 'edgedns-load-'))
  const file = path.join(dir, 'config.json')
  writeFileSync(
    file,
    JSON.stringify({ url, paths, gen, connections, duration, rate, headers, seed, h2 })
  )
  try {
    const stdout = await new Promise((resolve, reject) => {
      execFile(
        process.execPath,
        [CHILD, file],
        { timeout: (duration + 30) * 1000, maxBuffer: 16 << 20 },
        (err, out, errOut) => {
          if (err) reject(new Error(`load generator failed: ${err.message}\n${errOut}`))
          else resolve(out)
        }
      )
    })
    return JSON.parse(stdout)
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}
