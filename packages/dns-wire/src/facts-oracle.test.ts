import { createRequire } from 'node:module'
import { CLASSES, OPCODES, RCODES, RR_TYPES } from '@edgedns/dns-facts'
import { describe, expect, it } from 'vitest'

/** One of dns-packet's tables: an independent copy of an IANA registry to check ours against. */
interface Table {
  toString(code: number): string
  lookup(name: string): number
}

const require = createRequire(import.meta.url)
const load = (file: string, lookup: string): Table => {
  const t = require(`dns-packet/${file}`) as Record<string, (x: never) => never>
  return { toString: t.toString as never, lookup: t[lookup] as never }
}
const TYPES = load('types.js', 'toType')
const TABLES = [
  ['rcodes', RCODES, load('rcodes.js', 'toRcode')],
  ['classes', CLASSES, load('classes.js', 'toClass')],
  ['opcodes', OPCODES, load('opcodes.js', 'toOpcode')],
] as const

/** dns-packet's code for a name, or undefined when it does not know the name (it answers 0). */
const theirCode = (table: Table, name: string): number | undefined => {
  const code = table.lookup(name)
  return code !== 0 || table.toString(0) === name ? code : undefined
}

describe('the DNS fact tables agree with dns-packet on every name it knows', () => {
  it('record types', () => {
    const known = RR_TYPES.filter((t) => theirCode(TYPES, t.name) !== undefined)
    expect(known.length).toBeGreaterThan(30)
    for (const t of known) expect(theirCode(TYPES, t.name), t.name).toBe(t.code)
  })

  it.each(TABLES)('%s', (_, ours, theirs) => {
    const known = Object.entries(ours).filter(([name]) => theirCode(theirs, name) !== undefined)
    expect(known.length).toBeGreaterThan(3)
    for (const [name, code] of known) expect(theirCode(theirs, name), name).toBe(code)
  })
})
