import { ERROR_CODES, REGISTRY } from '@edgedns/records'
import { describe, expect, it } from 'vitest'
import errorsDoc from '../../../../docs/errors.md?raw'
import { Codes } from './api-error.ts'

/** The codes of the docs' table: single codes, and ranges written `a–b`. */
function documentedCodes(): { single: Set<number>; ranges: [number, number][] } {
  const single = new Set<number>()
  const ranges: [number, number][] = []
  for (const line of errorsDoc.split('\n')) {
    const cells = line.split('|').map((c) => c.trim())
    if (cells.length < 4 || !/\d/.test(cells[2]!)) continue
    for (const m of cells[2]!.matchAll(/(\d+)(?:–(\d+))?/g)) {
      if (m[2] === undefined) single.add(Number(m[1]))
      else ranges.push([Number(m[1]), Number(m[2])])
    }
  }
  return { single, ranges }
}

const typeCodes = Object.values(REGISTRY).map((spec) => spec.errorCode)

describe('error codes', () => {
  it('has one name per code in the API table', () => {
    const values = Object.values(Codes)
    expect(values.length).toBe(new Set(values).size)
  })

  it('extends the record-level table with the same numbers', () => {
    const api = new Set<number>(Object.values(Codes))
    for (const code of Object.values(ERROR_CODES)) expect(api.has(code), String(code)).toBe(true)
  })

  it('documents every code the API answers with in docs/errors.md', () => {
    const { single, ranges } = documentedCodes()
    const documented = (code: number) =>
      single.has(code) || ranges.some(([lo, hi]) => lo <= code && code <= hi)
    const missing = [...Object.values(Codes), ...typeCodes].filter((c) => !documented(c))
    expect(missing).toEqual([])
  })

  it('documents no code the API does not have', () => {
    const { single, ranges } = documentedCodes()
    const known = new Set<number>([...Object.values(Codes), ...typeCodes])
    const unknown = [...single, ...ranges.flat()].filter((c) => !known.has(c))
    expect(unknown).toEqual([])
  })
})
