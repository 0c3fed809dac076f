/**
 * @module LOC (RFC 1876) presentation → wire and back. The grammar and limits are in
 * `loc-text.ts`; the encoder takes numbers only in their plain form (seconds to three decimals,
 * metres to two), which is the form the decoder writes.
 */
import type { Reader } from '../reader.ts'
import type { Encoder } from './basic.ts'
import type { Decoder } from './present.ts'
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

/** Size/precision in whole centimetres → RFC 1876 mantissa and exponent (digits below dropped). */
function mantissaExponent(cm: number): [mantissa: number, exponent: number] {
  let exponent = 0
  while (exponent < 9 && cm >= 10 ** (exponent + 1)) exponent++
  return [Math.min(9, Math.floor(cm / 10 ** exponent)), exponent]
}

/** Size/precision in centimetres → RFC 1876 mantissa/exponent byte. */
function precision(cm: number): number {
  const [mantissa, exponent] = mantissaExponent(cm)
  return (mantissa << 4) | exponent
}

/**
 * A size or precision in metres as the wire holds it: one digit times a power of ten
 * centimetres, the digits below dropped, as this encoder and BIND's write it (`12345m` is
 * `10000m`). For the records API to store what is served.
 */
export function locRepresentableMeters(m: number): number {
  const [mantissa, exponent] = mantissaExponent(Math.round(m * 100))
  return (mantissa * 10 ** exponent) / 100
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

/** Centimetres as metres with two decimals and the `m` unit (`-5.5` m is `-5.50m`). */
function metresText(cm: number): string {
  const whole = Math.trunc(Math.abs(cm) / 100)
  const rest = String(Math.abs(cm) % 100).padStart(2, '0')
  return `${cm < 0 ? '-' : ''}${whole}.${rest}m`
}

/** A size or precision byte (RFC 1876 mantissa and power of ten) in centimetres. */
function precisionCm(r: Reader, byte: number): number {
  const mantissa = byte >> 4
  const exponent = byte & 0x0f
  if (mantissa > 9 || exponent > 9) r.fail('LOC size or precision digit above 9')
  return mantissa * 10 ** exponent
}

/** An angle's wire value as `d m s.sss H`. */
function angleText(r: Reader, raw: number, maxDeg: number, hemispheres: string): string {
  const offset = raw - EQUATOR
  const v = Math.abs(offset)
  if (v > maxDeg * 3_600_000) r.fail('LOC latitude or longitude out of range')
  const degrees = Math.floor(v / 3_600_000)
  const minutes = Math.floor((v % 3_600_000) / 60_000)
  const millis = v % 60_000
  const seconds = `${Math.floor(millis / 1000)}.${String(millis % 1000).padStart(3, '0')}`
  return `${degrees} ${minutes} ${seconds} ${hemispheres[offset < 0 ? 1 : 0]}`
}

/** LOC wire → presentation (version 0 only: another version's fields are not known). */
export const locText: Decoder = (r) => {
  if (r.u8() !== 0) r.fail('LOC version other than 0')
  const size = precisionCm(r, r.u8())
  const hp = precisionCm(r, r.u8())
  const vp = precisionCm(r, r.u8())
  const lat = angleText(r, r.u32(), 90, 'NS')
  const lon = angleText(r, r.u32(), 180, 'EW')
  const alt = r.u32() - ALT_BASE_CM
  return `${lat} ${lon} ${metresText(alt)} ${metresText(size)} ${metresText(hp)} ${metresText(vp)}`
}
