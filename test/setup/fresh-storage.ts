/**
 * Every test file starts on empty storage with the schema. The API project runs with
 * `isolate: false` (one workerd runtime runs file after file, so the API's modules load once per
 * worker), so before a file runs: its predecessors' Durable Objects are stopped and their storage
 * deleted (alarms too), the KV namespace's keys are deleted, and every bound D1 shard (DB, then
 * DB_1, DB_2, … where a project binds several) has its schema dropped and the migrations applied
 * again (they seed rows, so emptying the tables would not do). In a project with a runtime per file
 * only the migrations have work to do.
 */
import {
  abortAllDurableObjects,
  applyD1Migrations,
  listDurableObjectIds,
  runInDurableObject,
} from 'cloudflare:test'
import { env } from 'cloudflare:workers'
import { takeBreaches } from '@edgedns/strict-bindings'

/**
 * The Durable Object namespaces the workerd projects bind (wrangler.toml, the DoH test worker), and
 * whether tests reach their objects by names that recur across files (the feed's primary, a shard
 * mover per account): those are emptied every time. The others are named by zone IDs, which are
 * random (or fixed within one file), and an object is emptied before the two files that follow the
 * one that made it (work of that file still running when the next starts, such as a NOTIFY round
 * retrying, may reach it once more), then no longer: `listDurableObjectIds` keeps listing emptied
 * objects, and emptying them all every time grows with the run.
 */
const OBJECTS: Record<string, 'every time' | 'once'> = {
  ZONE_BUILDER: 'once',
  SECONDARY_ZONE: 'once',
  ZONE_FEED: 'every time',
  ZONE_FEED_REPLICA: 'every time',
  SHARD_MOVER: 'every time',
}
const bag = env as unknown as Record<string, unknown>
/** Times each object was emptied in this runtime (the setup module runs anew for every file). */
const emptied = ((globalThis as { emptiedObjects?: Map<string, number> }).emptiedObjects ??=
  new Map())

// Stopped, emptied (alarms too), and stopped again so that no instance keeps state in memory.
await abortAllDurableObjects()
for (const [name, when] of Object.entries(OBJECTS)) {
  const ns = bag[name] as DurableObjectNamespace | undefined
  if (!ns) continue
  const ids = (await listDurableObjectIds(ns)).filter(
    (id) => when === 'every time' || (emptied.get(`${name}:${id.toString()}`) ?? 0) < 2
  )
  await Promise.all(
    ids.map((id) =>
      runInDurableObject(ns.get(id), async (_instance: unknown, state: DurableObjectState) => {
        await state.storage.deleteAlarm()
        await state.storage.deleteAll()
      })
    )
  )
  for (const id of ids) {
    const key = `${name}:${id.toString()}`
    emptied.set(key, (emptied.get(key) ?? 0) + 1)
  }
}
await abortAllDurableObjects()

// A production limit breached by work an earlier file left running (after its last test ended) is
// reported here, not blamed on this file's first test.
const left = takeBreaches()
if (left.length > 0)
  console.warn(
    `production limits breached by work of an earlier file, after its tests:\n${[...new Set(left.map((b) => b.message))].join('\n')}`
  )
for (;;) {
  const page = await env.ZONES_KV.list()
  if (page.keys.length === 0) break
  await Promise.all(page.keys.map((k) => env.ZONES_KV.delete(k.name)))
}

/** Drops every table, view and trigger of `db`, its migration log included. */
async function dropSchema(db: D1Database): Promise<void> {
  const { results } = await db
    .prepare(
      `SELECT type, name FROM sqlite_master WHERE type IN ('table', 'view', 'trigger')
       AND name NOT LIKE 'sqlite_%' AND name NOT LIKE '_cf_%'`
    )
    .all<{ type: string; name: string }>()
  if (results.length === 0) return
  const order = ['trigger', 'view', 'table']
  const drops = results
    .sort((a, b) => order.indexOf(a.type) - order.indexOf(b.type))
    .map(({ type, name }) => db.prepare(`DROP ${type.toUpperCase()} IF EXISTS "${name}"`))
  await db.batch([db.prepare('PRAGMA defer_foreign_keys = ON'), ...drops])
}

for (let i = 0; bag[i === 0 ? 'DB' : `DB_${i}`]; i++) {
  const db = bag[i === 0 ? 'DB' : `DB_${i}`] as D1Database
  await dropSchema(db)
  await applyD1Migrations(db, env.TEST_MIGRATIONS)
}
