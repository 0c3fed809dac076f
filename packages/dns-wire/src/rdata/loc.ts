/**
 * @module LOC (RFC 1876) presentation → wire. The grammar and limits are in `loc-text.ts`; this
 * encoder takes numbers only in their plain form (seconds to three decimals, metres to two).
 */
import type { Encoder } from './basic.ts'
import { LOC_LIMITS, splitLocText, type LocAngleText } from './loc-text.ts'
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

/** An optional size or precision in centimetres, its default when absent. */
function optionalMeters(token: string | undefined, what: string, fallback: number): number {
  return token === undefined ? fallback * 100 : meters(token, what, 0, LOC_LIMITS.sizeMax)
}

/** Size/precision in centimetres → RFC 1876 mantissa/exponent byte. */
function precision(cm: number): number {
  let exponent = 0
  while (exponent < 9 && cm >= 10 ** (exponent + 1)) exponent++
  const mantissa = Math.min(9, Math.floor(cm / 10 ** exponent))
  return (mantissa << 4) | exponent
}

/** An angle → thousandths of arc seconds offset from the equator or prime meridian. */
function angle(a: LocAngleText, maxDeg: number): number {
  const { degrees: d, minutes: m = '0', seconds: s = '0' } = a
  if (!/^\d+$/.test(d) || !/^\d+$/.test(m) || !/^\d+(?:\.\d{1,3})?$/.test(s)) {
    throw new TextError('bad latitude/longitude')
  }
  const deg = Number(d)
  const min = Number(m)
  const sec = Number(s)
  if (deg > maxDeg || min > 59 || sec >= 60) throw new TextError('latitude/longitude out of range')
  const value = Math.round(((deg * 60 + min) * 60 + sec) * 1000)
  if (value > maxDeg * 3_600_000) throw new TextError('latitude/longitude out of range')
  const negative = a.hemisphere === 'S' || a.hemisphere === 'W'
  return negative ? EQUATOR - value : EQUATOR + value
}

export const loc: Encoder = (w, t) => {
  const split = splitLocText(t)
  if (!split.ok) {
    throw new TextError(
      split.part === 'altitude' ? 'expected altitude [size [hp [vp]]]' : 'bad latitude/longitude'
    )
  }
  const { loc: l } = split
  const lat = angle(l.latitude, 90)
  const lon = angle(l.longitude, 180)
  const { altitudeMin, altitudeMax } = LOC_LIMITS
  const alt = meters(l.altitude, 'altitude', altitudeMin, altitudeMax) + ALT_BASE_CM
  const size = optionalMeters(l.size, 'size', LOC_LIMITS.defaultSize)
  const hp = optionalMeters(
    l.horizPrecision,
    'horizontal precision',
    LOC_LIMITS.defaultHorizPrecision
  )
  const vp = optionalMeters(l.vertPrecision, 'vertical precision', LOC_LIMITS.defaultVertPrecision)
  w.u8(0)
  w.u8(precision(size))
  w.u8(precision(hp))
  w.u8(precision(vp))
  w.u32(lat)
  w.u32(lon)
  w.u32(alt)
}
