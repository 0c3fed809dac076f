/**
 * @module Hono environment type shared by every route.
 */
import type { DrizzleD1Database } from 'drizzle-orm/d1'
import type { Principal } from '../auth/permissions.ts'
import type * as schema from '../db/schema.ts'
import type { OwnershipResolver } from '../zones/resolver.ts'

export interface AppEnv {
  Bindings: Env
  Variables: {
    principal: Principal
    /** The home database (shard 0): accounts, tokens, the shard directory. */
    db: DrizzleD1Database<typeof schema>
    /** The D1 shard of the zone named in the path, set by `zoneFor` (zones/access.ts). */
    zoneDb: D1Database
    /** `zoneDb` through drizzle. */
    zoneOrm: DrizzleD1Database<typeof schema>
    /** Builder notifications to send once the response is out (`builder/notify.ts`). */
    afterResponse: (() => Promise<unknown>)[]
    /** Looks up zone ownership proofs in the public DNS (`PUT /zones/{id}/activation_check`). */
    ownershipResolver: OwnershipResolver
  }
}
