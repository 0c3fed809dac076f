/**
 * @module The isolate's cache of zone → shard routes, so a request costs at most one directory read
 * (none when cached). A cached route may go stale when its account moves; that is safe because
 * (1) a move fences the zone rows on the old shard (every guarded commit there fails) and then
 * deletes them, and (2) a reader that finds the zone missing or fenced on the cached shard drops the
 * entry and asks the directory again (`shards/zone-shard.ts`).
 */
import type { ShardRoute } from './directory.ts'

/** Entries kept per isolate (about 100 bytes each); the oldest goes first. */
const ROUTE_CACHE_ENTRIES = 10_000

const routes = new Map<string, ShardRoute>()

export function cachedRoute(zoneId: string): ShardRoute | undefined {
  return routes.get(zoneId)
}

export function rememberRoute(zoneId: string, route: ShardRoute): void {
  if (route.state !== 'active') return
  routes.delete(zoneId)
  routes.set(zoneId, route)
  if (routes.size > ROUTE_CACHE_ENTRIES) routes.delete(routes.keys().next().value!)
}
