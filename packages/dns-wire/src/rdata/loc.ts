/**
 * @module LOC (RFC 1876): `d [m [s]] N|S d [m [s]] E|W alt[m] [size[m] [hp[m] [vp[m]]]]`.
 */
import type { Encoder } from './basic.ts'
import { TextError } from './text.ts'

const EQUATOR = 2 ** 31
const ALT_BASE_CM = 10_000_000

function meters(token: string, what: string, min: number, max: number): number {
  const m = /^(-?\d+(?:\.\d{1,2})?)m?$/.exec(token)
  if (!m) throw new TextError(`bad ${what} ${token}`)
  const v = Number(m[1])
  if (v < min || v > max) throw new TextError(`${what} out of range`)
  return Math.round(v * 100)
}

/** Size/precision in centimetres → RFC 1876 mantissa/exponent byte. */
function precision(cm: number): number {
  let exponent = 0
  while (exponent < 9 && cm >= 10 ** (exponent + 1)) exponent++
  const mantissa = Math.min(9, Math.floor(cm / 10 ** exponent))
  return (mantissa << 4) | exponent
}

/** Reads `d [m [s]] H` from t at i; returns thousandths of arc seconds offset and next index. */
function angle(t: string[], i: number, hemis: string, maxDeg: number): [number, number] {
  const parts: string[] = []
  while (i < t.length && parts.length < 3 && !hemis.includes((t[i] as string).toUpperCase())) {
    parts.push(t[i++] as string)
  }
  const hemi = (t[i++] ?? '').toUpperCase()
  if (parts.length === 0 || !hemis.includes(hemi) || hemi.length !== 1) {
    throw new TextError('bad latitude/longitude')
  }
  const [d = '0', m = '0', s = '0'] = parts
  if (!/^\d+$/.test(d) || !/^\d+$/.test(m) || !/^\d+(?:\.\d{1,3})?$/.test(s)) {
    throw new TextError('bad latitude/longitude')
  }
  const deg = Number(d)
  const min = Number(m)
  const sec = Number(s)
  if (deg > maxDeg || min > 59 || sec >= 60) throw new TextError('latitude/longitude out of range')
  const value = Math.round(((deg * 60 + min) * 60 + sec) * 1000)
  if (value > maxDeg * 3_600_000) throw new TextError('latitude/longitude out of range')
  const negative = hemi === 'S' || hemi === 'W'
  return [negative ? EQUATOR - value : EQUATOR + value, i]
}

export const loc: Encoder = (w, t) => {
  const [lat, i] = angle(t, 0, 'NS', 90)
  const [lon, j] = angle(t, i, 'EW', 180)
  const rest = t.slice(j)
  if (rest.length < 1 || rest.length > 4) throw new TextError('expected altitude [size [hp [vp]]]')
  const alt = meters(rest[0] as string, 'altitude', -100000, 42849672.95) + ALT_BASE_CM
  const size = rest[1] === undefined ? 100 : meters(rest[1], 'size', 0, 90000000)
  const hp =
    rest[2] === undefined ? 1_000_000 : meters(rest[2], 'horizontal precision', 0, 90000000)
  const vp = rest[3] === undefined ? 1000 : meters(rest[3], 'vertical precision', 0, 90000000)
  w.u8(0)
  w.u8(precision(size))
  w.u8(precision(hp))
  w.u8(precision(vp))
  w.u32(lat)
  w.u32(lon)
  w.u32(alt)
}
