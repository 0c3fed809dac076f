/**
 * @module Name relations the delegation lookup needs, on lookup-form names (lowercase, no trailing
 * dot, root ''): the parent name, and whether a name is at or below another.
 */
import { lookupName } from '@edgedns/dns-facts'

/** The name one label up: `example.co.uk` → `co.uk`, `com` → `` (the root). */
export function parentName(name: string): string {
  const n = lookupName(name)
  const dot = n.indexOf('.')
  return dot < 0 ? '' : n.slice(dot + 1)
}

/** True when `name` is `ancestor` or below it (every name is below the root ''). */
export function isAtOrBelow(name: string, ancestor: string): boolean {
  const n = lookupName(name)
  const a = lookupName(ancestor)
  return a === '' || n === a || n.endsWith(`.${a}`)
}

/** True when `name` is strictly below `ancestor`. */
export function isBelow(name: string, ancestor: string): boolean {
  return lookupName(name) !== lookupName(ancestor) && isAtOrBelow(name, ancestor)
}

/** How a name is written in messages: `.` for the root. */
export const shown = (name: string): string => (name === '' ? '.' : name)
