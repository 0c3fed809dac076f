import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { PRODUCTION_LIMITS as L } from './index.ts'

const doc = readFileSync(new URL('../../../docs/limits.md', import.meta.url), 'utf8')

/** docs/limits.md's table of the limits the strict bindings check: limit → value cell. */
function strictTable(): Map<string, string> {
  const rows = new Map<string, string>()
  const start = doc.indexOf('| limit | value | strict check |')
  for (const line of doc.slice(start).split('\n').slice(2)) {
    if (!line.startsWith('|')) break
    const [, limit, value] = line.split('|').map((c) => c.trim())
    rows.set(limit!, value!)
  }
  return rows
}

const n = (x: number) => x.toLocaleString('en-US')

describe('docs/limits.md states the platform limits as this package does', () => {
  const expected: [string, string][] = [
    ['D1 statement length', `${n(L.d1StatementBytes)} bytes`],
    ['D1 bound parameters', `${L.d1BoundParameters} per statement`],
    ['D1 string / BLOB', `${n(L.d1ValueBytes)} bytes`],
    ['D1 row size', `${n(L.d1ValueBytes)} bytes`],
    ['D1 `LIKE` / `GLOB` pattern', `${L.d1LikePatternBytes} bytes`],
    ['KV operations per invocation', `${n(L.kvOpsPerInvocation)} (a bulk get counts as one)`],
    ['KV key', `${L.kvKeyBytes} bytes`],
    ['KV value', `${L.kvValueBytes / 2 ** 20} MiB`],
    ['KV writes per key', L.kvWritesPerKeyIntervalMs === 1000 ? 'one per second' : '?'],
  ]

  it.each(expected)('%s: %s', (limit, value) => {
    expect(strictTable().get(limit)).toBe(value)
  })

  it('checks every row of the table', () => {
    expect([...strictTable().keys()].sort()).toEqual(expected.map(([limit]) => limit).sort())
  })
})
