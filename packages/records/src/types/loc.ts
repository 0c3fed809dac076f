/**
 * @module types/loc: LOC (RFC 1876). Content is the RFC presentation form,
 * `37 46 46.000 N 122 23 35.000 W 0.00m 100.00m 0.00m 0.00m`; 'm' suffixes optional on input.
 */
import { z } from 'zod'
import { words } from '../charstring.ts'
import { fail } from '../errors.ts'
import { int, num, oneOf } from '../fields.ts'
import { numberToken } from './common.ts'
import { defineData } from './define.ts'

const MAX_SIZE = 90_000_000
const schema = z.object({
  lat_degrees: int(0, 90),
  lat_minutes: int(0, 59).default(0),
  lat_seconds: num(0, 59.999).default(0),
  lat_direction: oneOf(['N', 'S']),
  long_degrees: int(0, 180),
  long_minutes: int(0, 59).default(0),
  long_seconds: num(0, 59.999).default(0),
  long_direction: oneOf(['E', 'W']),
  altitude: num(-100_000, 42_849_672.95),
  size: num(0, MAX_SIZE).default(1),
  precision_horz: num(0, MAX_SIZE).default(10_000),
  precision_vert: num(0, MAX_SIZE).default(10),
})
type LocData = z.infer<typeof schema>

const round = (x: number, digits: number) => Number(x.toFixed(digits))

/** Read `d [m [s]] DIR` starting at `i`; returns the fields and the next index. */
function angle(w: string[], i: number, dirs: readonly string[], what: string) {
  const nums: (number | undefined)[] = []
  while (i < w.length && !dirs.includes((w[i] as string).toUpperCase()) && nums.length < 3) {
    nums.push(numberToken(w[i]))
    i++
  }
  const dir = w[i]?.toUpperCase()
  if (nums.length === 0 || dir === undefined || !dirs.includes(dir)) {
    fail(`expected ${what} as "<degrees> [minutes [seconds]] ${dirs.join('|')}"`)
  }
  return { d: nums[0], m: nums[1] ?? 0, s: nums[2] ?? 0, dir, next: i + 1 }
}

function meters(token: string | undefined): number | undefined {
  if (token === undefined) return undefined
  return numberToken(token.toLowerCase().endsWith('m') ? token.slice(0, -1) : token)
}

export const LOC = defineData<LocData>({
  type: 'LOC',
  errorCode: 9126,
  example: {
    fields: { content: '37 46 46 N 122 23 35 W 0 100 0 0' },
    presentation: '37 46 46.000 N 122 23 35.000 W 0.00m 100.00m 0.00m 0.00m',
  },
  dataSchema: schema,
  parseContent(content) {
    const w = words(content)
    const lat = angle(w, 0, ['N', 'S'], 'latitude')
    const long = angle(w, lat.next, ['E', 'W'], 'longitude')
    const rest = w.slice(long.next)
    if (rest.length < 1 || rest.length > 4) fail('expected "<altitude>m [size [horiz [vert]]]"')
    const [alt, size, hp, vp] = rest.map(meters)
    const data: Record<string, unknown> = {
      lat_degrees: lat.d,
      lat_minutes: lat.m,
      lat_seconds: lat.s,
      lat_direction: lat.dir,
      long_degrees: long.d,
      long_minutes: long.m,
      long_seconds: long.s,
      long_direction: long.dir,
      altitude: alt,
    }
    if (size !== undefined) data.size = size
    if (hp !== undefined) data.precision_horz = hp
    if (vp !== undefined) data.precision_vert = vp
    return { data }
  },
  canonicalize(d) {
    if (d.lat_degrees === 90 && (d.lat_minutes > 0 || d.lat_seconds > 0)) {
      fail('latitude must not exceed 90 degrees')
    }
    if (d.long_degrees === 180 && (d.long_minutes > 0 || d.long_seconds > 0)) {
      fail('longitude must not exceed 180 degrees')
    }
    return {
      ...d,
      lat_seconds: round(d.lat_seconds, 3),
      long_seconds: round(d.long_seconds, 3),
      altitude: round(d.altitude, 2),
      size: round(d.size, 2),
      precision_horz: round(d.precision_horz, 2),
      precision_vert: round(d.precision_vert, 2),
    }
  },
  formatData: (d) =>
    [
      d.lat_degrees,
      d.lat_minutes,
      d.lat_seconds.toFixed(3),
      d.lat_direction,
      d.long_degrees,
      d.long_minutes,
      d.long_seconds.toFixed(3),
      d.long_direction,
      `${d.altitude.toFixed(2)}m`,
      `${d.size.toFixed(2)}m`,
      `${d.precision_horz.toFixed(2)}m`,
      `${d.precision_vert.toFixed(2)}m`,
    ].join(' '),
})
