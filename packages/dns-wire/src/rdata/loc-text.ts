/**
 * @module The LOC presentation form (RFC 1876 section 3), split into its fields:
 * `d [m [s]] N|S d [m [s]] E|W alt[m] [size[m] [hp[m] [vp[m]]]]`. The one place the grammar and
 * the field limits live; the wire encoder and the records API's LOC validation both start here and
 * each judge the numbers by their own rules (the encoder strictly, the API leniently, rounding).
 */

/** RFC 1876 field limits and defaults, in metres. */
export const LOC_LIMITS = {
  altitudeMin: -100_000,
  altitudeMax: 42_849_672.95,
  sizeMax: 90_000_000,
  defaultSize: 1,
  defaultHorizPrecision: 10_000,
  defaultVertPrecision: 10,
} as const

/** One angle as written: up to three number tokens and its hemisphere letter (upper case). */
export interface LocAngleText {
  degrees: string
  minutes: string | undefined
  seconds: string | undefined
  hemisphere: string
}

/** The fields of a LOC presentation, tokens as written (metre tokens keep any `m` suffix). */
export interface LocText {
  latitude: LocAngleText
  longitude: LocAngleText
  altitude: string
  size: string | undefined
  horizPrecision: string | undefined
  vertPrecision: string | undefined
}

/** The split, or the first part whose shape is wrong. */
export type LocSplit =
  { ok: true; loc: LocText } | { ok: false; part: 'latitude' | 'longitude' | 'altitude' }

/** Reads `d [m [s]] H` from `t` at `i`; the angle and the next index, or undefined. */
function angle(t: readonly string[], i: number, hemispheres: readonly string[]) {
  const parts: string[] = []
  while (
    i < t.length &&
    parts.length < 3 &&
    !hemispheres.includes((t[i] as string).toUpperCase())
  ) {
    parts.push(t[i++] as string)
  }
  const hemisphere = t[i++]?.toUpperCase()
  if (parts.length === 0 || hemisphere === undefined || !hemispheres.includes(hemisphere)) {
    return undefined
  }
  const [degrees = '', minutes, seconds] = parts
  return { angle: { degrees, minutes, seconds, hemisphere }, next: i }
}

/** Splits LOC presentation tokens into their fields; numbers are not judged here. */
export function splitLocText(tokens: readonly string[]): LocSplit {
  const latitude = angle(tokens, 0, ['N', 'S'])
  if (!latitude) return { ok: false, part: 'latitude' }
  const longitude = angle(tokens, latitude.next, ['E', 'W'])
  if (!longitude) return { ok: false, part: 'longitude' }
  const rest = tokens.slice(longitude.next)
  if (rest.length < 1 || rest.length > 4) return { ok: false, part: 'altitude' }
  const [altitude = '', size, horizPrecision, vertPrecision] = rest
  return {
    ok: true,
    loc: {
      latitude: latitude.angle,
      longitude: longitude.angle,
      altitude,
      size,
      horizPrecision,
      vertPrecision,
    },
  }
}
