/**
 * @module Query parameters: a parameter given more than once is read as its last value, on every
 * route (as the records list always did), so `per_page=2&per_page=3` means 3 everywhere. A
 * parameter meant to repeat (`type` of the zones list, the records list's filters) reads them all.
 */
import type { Context } from 'hono'

/** The last value of query parameter `key`, or undefined when it is absent. */
export function queryParam(c: Context, key: string): string | undefined {
  return c.req.queries(key)?.at(-1)
}
