import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { ERROR_CODES } from './errors.ts'
import { REGISTRY } from './registry.ts'

const readme = readFileSync(new URL('../README.md', import.meta.url), 'utf8')

/** The rows of the table under `## heading`: its cells, trimmed. */
function table(heading: string): string[][] {
  const section = readme.split(`\n## ${heading}\n`)[1]!.split('\n## ')[0]!
  return section
    .split('\n')
    .filter((l) => l.startsWith('|'))
    .slice(2)
    .map((l) => l.split('|').map((c) => c.trim()))
}

const code = (cell: string) => Number(/^\d+/.exec(cell)?.[0])

describe('the README states the error codes as the code has them', () => {
  it('lists every record-level code, and no other', () => {
    const listed = table('Error codes').map((row) => code(row[1]!))
    expect(listed.sort()).toEqual(Object.values(ERROR_CODES).sort())
  })

  it('gives each type the code of its spec', () => {
    const listed = Object.fromEntries(table('Types').map((row) => [row[1], code(row[3]!)]))
    const specs = Object.fromEntries(
      Object.entries(REGISTRY).map(([type, spec]) => [type, spec.errorCode])
    )
    expect(listed).toEqual(specs)
  })
})
