/**
 * @module Hono environment type shared by every route.
 */
import type { DrizzleD1Database } from 'drizzle-orm/d1'
import type { Principal } from '../auth/permissions.ts'
import type * as schema from '../db/schema.ts'

export interface AppEnv {
  Bindings: Env
  Variables: {
    principal: Principal
    db: DrizzleD1Database<typeof schema>
    /** Builder notifications to send once the response is out (`builder/notify.ts`). */
    afterResponse: (() => Promise<unknown>)[]
  }
}
