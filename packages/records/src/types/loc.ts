/**
 * @module types/loc: LOC (RFC 1876). Content is the RFC presentation form,
 * `37 46 46.000 N 122 23 35.000 W 0.00m 100.00m 0.00m 0.00m`; 'm' suffixes optional on input.
 * Size and precisions are kept as the wire encodes them (one digit times a power of ten).
 */
import { LOC_LIMITS, locRepresentableMeters, splitLocText } from '@edgedns/dns-wire'
import { z } from 'zod'
import { words } from '../charstring.ts'
import { fail } from '../errors.ts'
import { int, num, oneOf } from '../fields.ts'
import { numberToken } from './common.ts'
import { defineData } from './define.ts'

const { altitudeMin, altitudeMax, sizeMax } = LOC_LIMITS
const schema = z.object({
  lat_degrees: int(0, 90),
  lat_minutes: int(0, 59).default(0),
  lat_seconds: num(0, 59.999).default(0),
  lat_direction: oneOf(['N', 'S']),
  long_degrees: int(0, 180),
  long_minutes: int(0, 59).default(0),
  long_seconds: num(0, 59.999).default(0),
  long_direction: oneOf(['E', 'W']),
  altitude: num(altitudeMin, altitudeMax),
  size: num(0, sizeMax).default(LOC_LIMITS.defaultSize),
  precision_horz: num(0, sizeMax).default(LOC_LIMITS.defaultHorizPrecision),
  precision_vert: num(0, sizeMax).default(LOC_LIMITS.defaultVertPrecision),
})
type LocData = z.infer<typeof schema>

const round = (x: number, digits: number) => Number(x.toFixed(digits))

const SHAPE_ERRORS = {
  latitude: 'expected latitude as "<degrees> [minutes [seconds]] N|S"',
  longitude: 'expected longitude as "<degrees> [minutes [seconds]] E|W"',
  altitude: 'expected "<altitude>m [size [horiz [vert]]]"',
} as const

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
    const split = splitLocText(words(content))
    if (!split.ok) fail(SHAPE_ERRORS[split.part])
    const { latitude: lat, longitude: long } = split.loc
    const size = meters(split.loc.size)
    const hp = meters(split.loc.horizPrecision)
    const vp = meters(split.loc.vertPrecision)
    const data: Record<string, unknown> = {
      lat_degrees: numberToken(lat.degrees),
      lat_minutes: numberToken(lat.minutes) ?? 0,
      lat_seconds: numberToken(lat.seconds) ?? 0,
      lat_direction: lat.hemisphere,
      long_degrees: numberToken(long.degrees),
      long_minutes: numberToken(long.minutes) ?? 0,
      long_seconds: numberToken(long.seconds) ?? 0,
      long_direction: long.hemisphere,
      altitude: meters(split.loc.altitude),
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
      // One digit times a power of ten on the wire (RFC 1876): stored as served, so content,
      // export and DoH JSON say what a resolver gets (`12345m` is `10000m`, as BIND reads it).
      size: locRepresentableMeters(d.size),
      precision_horz: locRepresentableMeters(d.precision_horz),
      precision_vert: locRepresentableMeters(d.precision_vert),
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
