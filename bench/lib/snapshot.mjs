/**
 * @module A point-in-time copy of a running stack's KV state for a second runtime: value blobs
 * are immutable files, so they are hard-linked (instant, no data copied); the SQLite metadata is
 * copied. The running stack must be idle (no build in progress) while this runs.
 */
import { cpSync, linkSync, mkdirSync, readdirSync, statSync } from 'node:fs'
import path from 'node:path'

function linkTree(from, to) {
  mkdirSync(to, { recursive: true })
  for (const entry of readdirSync(from)) {
    const src = path.join(from, entry)
    const dst = path.join(to, entry)
    if (statSync(src).isDirectory()) linkTree(src, dst)
    else if (entry.includes('.sqlite')) cpSync(src, dst)
    else {
      try {
        linkSync(src, dst)
      } catch (e) {
        if (e.code !== 'ENOENT') throw e // a temporary file that went away meanwhile
      }
    }
  }
}

/** Copies `<stateDir>/kv` into `<target>/kv`; returns `target` (a resourcePersistencePath). */
export function snapshotKv(stateDir, target) {
  linkTree(path.join(stateDir, 'kv'), path.join(target, 'kv'))
  return target
}

/** Number of KV values (blob files) in a state directory. */
export function kvValueCount(stateDir) {
  const kv = path.join(stateDir, 'kv')
  let n = 0
  for (const ns of readdirSync(kv)) {
    const blobs = path.join(kv, ns, 'blobs')
    try {
      n += readdirSync(blobs).filter((f) => !f.startsWith('.')).length
    } catch {}
  }
  return n
}
