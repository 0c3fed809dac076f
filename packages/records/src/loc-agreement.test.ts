import { LOC_LIMITS, encodeRdata, splitLocText } from '@edgedns/dns-wire'
import { describe, expect, it } from 'vitest'
import { normalizeContent } from './content.ts'
import { RecordError } from './errors.ts'

const LOC = 29

/** The records API's verdict on a LOC content: its canonical content, or the error code. */
function validate(content: string): { content: string } | { code: number } {
  try {
    return { content: normalizeContent({ type: 'LOC', content }).content }
  } catch (err) {
    if (err instanceof RecordError) return { code: err.code }
    throw err
  }
}

const wire = (content: string): Uint8Array | 'rejected' => {
  try {
    return encodeRdata(LOC, content)
  } catch {
    return 'rejected'
  }
}

/** Contents both sides accept, already in the plain form the wire encoder takes. */
const PLAIN = [
  '37 46 46.000 N 122 23 35.000 W 0.00m 100.00m 0.00m 0.00m',
  '52 22 n 4 53 e -2',
  '0 S 0 W 0m',
  '90 N 180 E 42849672.95m 90000000m 90000000m 90000000m',
  '89 59 59.999 S 179 59 59.999 W -100000m 1m',
  '1 2 N 3 4 E 5.5m 6m 7m',
]

/** Contents the API accepts and rounds; the wire encoder takes only their canonical form. */
const LENIENT = ['37 46 46.0004 N 122 23 35 W 0M', '10 0 0 N 20 0 0 E 1.234m 2.005m']

/** Contents both sides reject, for the shape or a range. */
const REJECTED = [
  '',
  '37 46 46',
  'N 122 W 0m',
  '37 46 46 46 N 122 W 0m',
  '37 X 122 W 0m',
  '37 N 122 X 0m',
  '37 N 122 W',
  '37 N 122 W 1m 2m 3m 4m 5m',
  '91 0 0 N 0 0 0 E 0m',
  '90 1 0 N 0 0 0 E 0m',
  '0 N 180 0 1 E 0m',
  '10 60 0 N 0 E 0m',
  '10 0 60 N 0 0 0 E 0m',
  '1.5 N 0 E 0m',
  '1 N 1 E 99999999m',
  '1 N 1 E -100001m',
  '1 N 1 E 0m 90000001m',
  '1 N 1 E 0m abc',
  '1 NS 1 E 0m',
]

describe('LOC: one presentation parse feeds the records API and the wire encoder', () => {
  it.each(PLAIN)('both accept %j and encode it to the same bytes', (content) => {
    const verdict = validate(content)
    expect(verdict).toHaveProperty('content')
    const canonical = (verdict as { content: string }).content
    expect(wire(canonical)).toEqual(wire(content))
    expect(wire(content)).not.toBe('rejected')
  })

  it.each(LENIENT)('the API rounds %j to a form the encoder takes', (content) => {
    const verdict = validate(content)
    expect(verdict).toHaveProperty('content')
    expect(wire((verdict as { content: string }).content)).toBeInstanceOf(Uint8Array)
  })

  it.each(REJECTED)('both reject %j', (content) => {
    expect(validate(content)).toEqual({ code: 9126 })
    expect(wire(content)).toBe('rejected')
  })

  it('the API reads its fields from the split dns-wire makes', () => {
    const content = '52 22 n 4 53 30.5 e -2m 3m'
    const split = splitLocText(content.split(' '))
    expect(split).toMatchObject({
      ok: true,
      loc: {
        latitude: { degrees: '52', minutes: '22', seconds: undefined, hemisphere: 'N' },
        longitude: { degrees: '4', minutes: '53', seconds: '30.5', hemisphere: 'E' },
        altitude: '-2m',
        size: '3m',
        horizPrecision: undefined,
      },
    })
    const { data } = normalizeContent({ type: 'LOC', content })
    expect(data).toMatchObject({
      lat_degrees: 52,
      lat_minutes: 22,
      lat_seconds: 0,
      lat_direction: 'N',
      long_seconds: 30.5,
      long_direction: 'E',
      altitude: -2,
      size: 3,
      precision_horz: LOC_LIMITS.defaultHorizPrecision,
      precision_vert: LOC_LIMITS.defaultVertPrecision,
    })
  })

  it('names the part whose shape is wrong', () => {
    expect(splitLocText(['1', 'X'])).toEqual({ ok: false, part: 'latitude' })
    expect(splitLocText(['1', 'N', '2'])).toEqual({ ok: false, part: 'longitude' })
    expect(splitLocText(['1', 'N', '2', 'E'])).toEqual({ ok: false, part: 'altitude' })
  })
})

describe('LOC size and precisions are stored as the wire holds them (RFC 1876, as BIND reads them)', () => {
  it.each([
    ['1 0 0 N 1 0 0 E 0m 12345m 333m 7m', '1 0 0.000 N 1 0 0.000 E 0.00m 10000.00m 300.00m 7.00m'],
    ['1 0 0 N 1 0 0 E 0m 99.99m 1.23m 0.07m', '1 0 0.000 N 1 0 0.000 E 0.00m 90.00m 1.00m 0.07m'],
  ])('%j is stored as %j, which encodes to the same bytes', (content, want) => {
    expect(validate(content)).toEqual({ content: want })
    expect(wire(want)).toEqual(wire(content))
  })
})
