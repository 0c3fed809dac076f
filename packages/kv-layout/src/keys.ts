/**
 * @module KV key builders: `z:<zone>` for zone metadata, `n:<zone>:<name>` for other names.
 */
import { normalizeName } from './names.ts'

export function zoneKey(zone: string): string {
  return `z:${normalizeName(zone)}`
}

export function nodeKey(zone: string, name: string): string {
  return `n:${normalizeName(zone)}:${normalizeName(name)}`
}
