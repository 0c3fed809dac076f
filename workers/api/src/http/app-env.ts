/**
 * @module Hono environment type shared by every route: the worker's bindings and the variables a
 * request carries. Layers above this one add the variables they own to `AppVariables` by
 * declaration merging (`principal` in `auth/permissions.ts`, `ownershipResolver` in
 * `zones/resolver.ts`), so this lowest layer names no type of theirs.
 */
import type { DrizzleD1Database } from 'drizzle-orm/d1'
import type * as schema from '../db/schema.ts'

/**
 * Exported for the declaration merging above (knip sees no import of it).
 * @public
 */
export interface AppVariables {
  /** The home database (shard 0): accounts, tokens, the shard directory. */
  db: DrizzleD1Database<typeof schema>
  /** The D1 shard of the zone named in the path, set by `zoneFor` (zones/access.ts). */
  zoneDb: D1Database
  /** `zoneDb` through drizzle. */
  zoneOrm: DrizzleD1Database<typeof schema>
  /** Builder notifications to send once the response is out (`builder/notify.ts`). */
  afterResponse: (() => Promise<unknown>)[]
}

export interface AppEnv {
  Bindings: Env
  Variables: AppVariables
}
