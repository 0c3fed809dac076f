/** @module ttl — TTLs in BIND syntax: plain seconds or unit groups such as 1h30m, 1d, 2w. */

/** Largest TTL allowed by RFC 2181 §8. */
export const MAX_TTL = 2147483647

const UNIT_SECONDS: Record<string, number> = { w: 604800, d: 86400, h: 3600, m: 60, s: 1 }
const UNIT_TTL = /^(?:\d+[wdhms])+$/i
const UNIT_GROUP = /(\d+)([wdhms])/gi

/** Parses a TTL ('3600', '1h30m', '1W'); returns undefined when the text is not a valid TTL. */
export function parseTtl(text: string): number | undefined {
  let seconds: number
  if (/^\d+$/.test(text)) {
    seconds = Number(text)
  } else if (UNIT_TTL.test(text)) {
    seconds = 0
    for (const [, digits, unit] of text.matchAll(UNIT_GROUP)) {
      seconds += Number(digits) * (UNIT_SECONDS[unit!.toLowerCase()] ?? 0)
    }
  } else {
    return undefined
  }
  return seconds <= MAX_TTL ? seconds : undefined
}
