/**
 * @module Many KV values written fast, straight into Miniflare's persisted store before the bench
 * runtime starts: a put through the runtime costs about 1.5 ms (each value is a file written by the
 * KV simulator's Durable Object), so 400,000 of them would take ten minutes. The store is a SQLite
 * table (`_mf_entries`: key, blob id, expiration, metadata) beside one file per value (`blobs/`);
 * a throwaway runtime on the same directory creates both with the simulator's own schema, then the
 * entries are inserted in one transaction and their files written. The values are whatever the
 * caller computed (zone images from `zoneImage`, byte for byte what a full build writes).
 */
import { randomBytes } from 'node:crypto'
import { mkdirSync, readdirSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { DatabaseSync } from 'node:sqlite'
import { convertV4MiniflareOptions, Log, LogLevel, Miniflare } from 'miniflare'

/** The namespace every bench worker binds as ZONES_KV. */
const NAMESPACE = 'edgedns-zones'

/** Lets the KV simulator create its store for the namespace under `stateDir` (one put). */
async function primeStore(stateDir) {
  const mf = new Miniflare(
    convertV4MiniflareOptions({
      cf: false,
      log: new Log(LogLevel.WARN),
      resourcePersistencePath: stateDir,
      workers: [
        {
          name: 'kv-prime',
          modules: true,
          script:
            'export default { async fetch(req, env) { await env.ZONES_KV.put("bench:primed", "1"); return new Response("ok") } }',
          compatibilityDate: '2026-10-01',
          kvNamespaces: { ZONES_KV: NAMESPACE },
        },
      ],
    })
  )
  try {
    await (await mf.dispatchFetch('http://prime/')).text()
  } finally {
    await mf.dispose()
  }
}

/**
 * Writes every [key, value] of `entries` (any iterable) into the persisted KV store of `stateDir`
 * (a `resourcePersistencePath`), which no runtime may have open. Returns the entries written.
 */
export async function writeKvStore(stateDir, entries) {
  await primeStore(stateDir)
  const objects = path.join(stateDir, 'kv', 'miniflare-KVNamespaceObject')
  const file = readdirSync(objects).find((f) => f.endsWith('.sqlite') && f !== 'metadata.sqlite')
  if (!file) throw new Error(`no KV store under ${objects}`)
  const blobs = path.join(stateDir, 'kv', NAMESPACE, 'blobs')
  mkdirSync(blobs, { recursive: true })
  const db = new DatabaseSync(path.join(objects, file))
  let written = 0
  try {
    const insert = db.prepare(
      'INSERT OR REPLACE INTO _mf_entries (key, blob_id, expiration, metadata) VALUES (?, ?, NULL, NULL)'
    )
    const stamp = Date.now().toString(16).padStart(16, '0')
    db.exec('BEGIN')
    for (const [key, value] of entries) {
      const blobId = `${randomBytes(32).toString('hex')}${stamp}`
      writeFileSync(path.join(blobs, blobId), value)
      insert.run(key, blobId)
      written++
    }
    db.exec('COMMIT')
  } finally {
    db.close()
  }
  return written
}
