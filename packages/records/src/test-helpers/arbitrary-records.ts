/**
 * @module test-helpers/arbitrary-records: fast-check generators of API record input over every
 * type, dense in what breaks zone files: quotes, backslashes, semicolons, parentheses, blanks,
 * control characters, non-ASCII and non-UTF-8 octets, empty strings and the 255/256-octet
 * boundary of a character-string. Many inputs are invalid on purpose: a property keeps only
 * those the API's validation accepts. Shared by the pure round-trip test and the end-to-end
 * named-checkzone test.
 */
import fc from 'fast-check'
import { normalizeContent } from '../content.ts'
import { RecordError } from '../errors.ts'
import { RECORD_TYPES, type RecordType } from '../record-type.ts'
import type { RecordFields, StoredRecord } from '../spec.ts'

/** One character (or escape) of the kinds that zone-file readers treat specially. */
const piece = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom('a', 'Z', '0', '9', '-', '.', '/', ':', '=', ',') },
  {
    weight: 3,
    arbitrary: fc.constantFrom('"', '\\', ';', '(', ')', ' ', '\t', '\n', '\r', '$', '@', '{', '}'),
  },
  { weight: 1, arbitrary: fc.constantFrom('\\"', '\\\\', '\\059', '\\000', '\\255', '\\1') },
  { weight: 1, arbitrary: fc.constantFrom('é', '😀', '\u00a0', '\u2028', '\u0000', '\u007f') },
  { weight: 1, arbitrary: fc.constantFrom('\ud800', '\udfff', '\ufffd') }
)

/** Adversarial text, from empty to a few dozen pieces. */
export const nastyText: fc.Arbitrary<string> = fc
  .array(piece, { maxLength: 24 })
  .map((parts) => parts.join(''))

/** Strings at the 255/256-octet boundary of a character-string (ASCII and multi-byte). */
const boundaryText = fc.constantFrom(
  'x'.repeat(254),
  'x'.repeat(255),
  'x'.repeat(256),
  `${'x'.repeat(253)}é`,
  `${'x'.repeat(254)}é`,
  `${'"'.repeat(255)}`,
  `${'\\'.repeat(256)}`
)

/** Text for a character-string field: plain, adversarial, or at the length boundary. */
const fieldText: fc.Arbitrary<string> = fc.oneof(
  { weight: 2, arbitrary: fc.string({ maxLength: 20 }) },
  { weight: 5, arbitrary: nastyText },
  { weight: 1, arbitrary: boundaryText },
  { weight: 1, arbitrary: fc.constant('') }
)

const label = fc.stringMatching(/^[a-z0-9_]([a-z0-9-]{0,8}[a-z0-9])?$/)

/** A hostname outside the test zone (targets, so no in-zone glue checks apply). */
const hostname: fc.Arbitrary<string> = fc.oneof(
  fc
    .tuple(
      fc.array(label, { minLength: 1, maxLength: 3 }),
      fc.constantFrom('example.net', 'Example.ORG.')
    )
    .map(([labels, tail]) => `${labels.join('.')}.${tail}`),
  fc.constantFrom('host.example.net', 'xn--bcher-kva.example.net', 'bücher.example.net')
)

const hexOf = (octets: number) =>
  fc
    .uint8Array({ minLength: octets, maxLength: octets })
    .map((b) => Array.from(b, (x) => x.toString(16).padStart(2, '0')).join(''))
const base64 = fc
  .uint8Array({ minLength: 1, maxLength: 80 })
  .map((b) => btoa(String.fromCharCode(...b)))
const u8 = fc.integer({ min: 0, max: 255 })
const u16 = fc.integer({ min: 0, max: 65535 })

/** One SvcParam written as a user might: valid, escaped, quoted, or broken. */
const svcParam = fc.oneof(
  fc
    .array(fc.constantFrom('h2', 'h3', 'http/1.1', 'h3-29', 'x"y', 'a\\,b', ''), {
      minLength: 1,
      maxLength: 3,
    })
    .chain((ids) => fc.constantFrom(`alpn=${ids.join(',')}`, `alpn="${ids.join(',')}"`)),
  u16.map((p) => `port=${p}`),
  fc.constant('ipv4hint=192.0.2.1,198.51.100.2'),
  fc.constant('ipv6hint="2001:DB8::1"'),
  base64.map((b) => `ech="${b}"`),
  fieldText.map((t) => `dohpath=${t}`),
  fieldText.map((t) => `dohpath=/${t}{?dns}`),
  fieldText.map((t) => `dohpath="/${t}{?dns}"`),
  fc.constantFrom('dohpath=/dns-query{?dns}', 'dohpath="/q{+dns,x:3}"', 'dohpath=/{dns*}'),
  fc
    .tuple(fc.integer({ min: 9, max: 65534 }), fieldText, fc.boolean())
    .map(([k, t, q]) => (q ? `key${k}="${t}"` : `key${k}=${t}`)),
  fc.constantFrom('no-default-alpn', 'ohttp', 'mandatory=alpn', 'mandatory=port,ipv4hint')
)

const svcParams: fc.Arbitrary<string> = fc
  .array(svcParam, { maxLength: 4 })
  .map((ps) => ps.join(' '))

const alpnId = fc.oneof(
  fc.constantFrom('h2', 'h3', 'http/1.1', 'h3-29'),
  fc.stringMatching(/^[a-z0-9][a-z0-9-]{0,9}$/)
)
const ipv4 = fc.tuple(u8, u8, u8, u8).map((o) => o.join('.'))
const ipv6 = fc
  .array(u16, { minLength: 8, maxLength: 8 })
  .map((g) => g.map((x) => x.toString(16)).join(':'))

/**
 * SvcParams an HTTPS or SVCB record is accepted with (RFC 9460), built so: keys at most once,
 * `mandatory` naming only keys present, `no-default-alpn` only beside `alpn`, values of each key's
 * syntax. The adversarial `svcParams` above are mostly refused, so they rarely reach what a
 * transfer does to accepted values.
 */
export const validSvcParams: fc.Arbitrary<string> = fc
  .record(
    {
      alpn: fc.array(alpnId, { minLength: 1, maxLength: 3 }).map((ids) => ids.join(',')),
      'no-default-alpn': fc.constant(''),
      port: u16.map(String),
      ipv4hint: fc.array(ipv4, { minLength: 1, maxLength: 3 }).map((a) => a.join(',')),
      ech: base64,
      ipv6hint: fc.array(ipv6, { minLength: 1, maxLength: 2 }).map((a) => a.join(',')),
      key65333: fc.stringMatching(/^[a-z0-9]{1,12}$/),
    },
    { requiredKeys: [] }
  )
  .chain((params) => {
    const keys = Object.keys(params).filter((k) => k !== 'no-default-alpn' || 'alpn' in params)
    const optional = keys.filter((k) => k !== 'mandatory')
    return fc.subarray(optional).map((mandatory) => {
      const parts = keys.map((k) => {
        const v = params[k as keyof typeof params]
        return v === '' ? k : `${k}=${v}`
      })
      if (mandatory.length > 0) parts.unshift(`mandatory=${mandatory.join(',')}`)
      return parts.join(' ')
    })
  })

/** Presentation text of TXT character-strings in the canonical quoted form (see TODO below). */
function quotedTxt(parts: Uint8Array[]): string {
  const esc = (b: number) =>
    b === 0x22 || b === 0x5c
      ? `\\${String.fromCharCode(b)}`
      : b < 0x20 || b >= 0x7f
        ? `\\${String(b).padStart(3, '0')}`
        : String.fromCharCode(b)
  return parts.map((p) => `"${Array.from(p, esc).join('')}"`).join(' ')
}

const txtString = fc.oneof(
  fc.uint8Array({ maxLength: 30 }),
  fieldText.map((t) => new TextEncoder().encode(t).subarray(0, 255))
)

const locData = fc.record({
  lat_degrees: fc.integer({ min: 0, max: 90 }),
  lat_minutes: fc.integer({ min: 0, max: 59 }),
  lat_seconds: fc.integer({ min: 0, max: 59_999 }).map((s) => s / 1000),
  lat_direction: fc.constantFrom('N', 'S'),
  long_degrees: fc.integer({ min: 0, max: 180 }),
  long_minutes: fc.integer({ min: 0, max: 59 }),
  long_seconds: fc.integer({ min: 0, max: 59_999 }).map((s) => s / 1000),
  long_direction: fc.constantFrom('E', 'W'),
  altitude: fc.integer({ min: -10_000_000, max: 4_284_967_295 }).map((cm) => cm / 100),
  size: fc.integer({ min: 0, max: 9_000_000_000 }).map((cm) => cm / 100),
  precision_horz: fc.integer({ min: 0, max: 9_000_000_000 }).map((cm) => cm / 100),
  precision_vert: fc.integer({ min: 0, max: 9_000_000_000 }).map((cm) => cm / 100),
})

/** A NAPTR regexp built as `<delim><ERE><delim><replacement><delim>[flags]`, often invalid. */
const regexPart = fc
  .array(
    fc.oneof(
      fc.constantFrom('(', ')', '[', ']', '{', '}', '*', '+', '?', '|', '^', '$', '.', ','),
      fc.constantFrom('a', '1', '-', ':', '\\', '\\1', '\\2', '[:digit:]', '{2}', '"', ' ', ';')
    ),
    { maxLength: 10 }
  )
  .map((parts) => parts.join(''))
const naptrRegex = fc.oneof(
  fieldText,
  fc
    .tuple(
      fc.constantFrom('!', '/', '#', 'x'),
      regexPart,
      regexPart,
      fc.constantFrom('', 'i', 'ii')
    )
    .map(([d, ere, repl, flags]) => `${d}${ere}${d}${repl}${d}${flags}`),
  fc.constant('!^.*$!sip:info@example.com!')
)

/** API input (without the name) of each type. */
const BY_TYPE: Record<RecordType, fc.Arbitrary<Omit<RecordFields, 'type'>>> = {
  A: fc.ipV4().map((content) => ({ content })),
  AAAA: fc.ipV6().map((content) => ({ content })),
  CAA: fc
    .record({
      flags: fc.constantFrom(0, 128, 255),
      tag: fc.constantFrom('issue', 'issuewild', 'iodef', 'Tbs', 'x1'),
      value: fieldText,
    })
    .map((data) => ({ data })),
  CERT: fc
    .record({ type: u16, key_tag: u16, algorithm: u8, certificate: base64 })
    .map((data) => ({ data })),
  CNAME: hostname.map((content) => ({ content })),
  DNSKEY: fc
    .record({ flags: u16, protocol: u8, algorithm: u8, public_key: base64 })
    .map((data) => ({ data })),
  DS: fc.tuple(u16, u8, fc.constantFrom(1, 2, 4)).chain(([key_tag, algorithm, digest_type]) =>
    hexOf({ 1: 20, 2: 32, 4: 48 }[digest_type] ?? 32).map((digest) => ({
      data: { key_tag, algorithm, digest_type, digest },
    }))
  ),
  HTTPS: fc
    .record({
      priority: fc.integer({ min: 0, max: 3 }),
      target: fc.oneof(hostname, fc.constant('.')),
      value: svcParams,
    })
    .map((data) => ({ data })),
  LOC: locData.map((data) => ({ data })),
  MX: fc
    .tuple(fc.oneof(hostname, fc.constant('.')), u16)
    .map(([content, priority]) => ({ content, priority })),
  NAPTR: fc
    .record({
      order: u16,
      preference: u16,
      flags: fc.constantFrom('', 'S', 'a', 'U', 'P1'),
      service: fieldText,
      regex: naptrRegex,
      replacement: fc.oneof(hostname, fc.constant('.')),
    })
    .map((data) => ({ data })),
  NS: hostname.map((content) => ({ content })),
  OPENPGPKEY: base64.map((content) => ({ content })),
  PTR: hostname.map((content) => ({ content })),
  SMIMEA: fc.tuple(u8, u8, fc.constantFrom(0, 1, 2)).chain(([usage, selector, matching_type]) =>
    hexOf(matching_type === 1 ? 32 : matching_type === 2 ? 64 : 40).map((certificate) => ({
      data: { usage, selector, matching_type, certificate },
    }))
  ),
  SRV: fc
    .record({ priority: u16, weight: u16, port: u16, target: fc.oneof(hostname, fc.constant('.')) })
    .map((data) => ({ data })),
  SSHFP: fc
    .tuple(u8, fc.constantFrom(1, 2))
    .chain(([algorithm, type]) =>
      hexOf(type === 1 ? 20 : 32).map((fingerprint) => ({ data: { algorithm, type, fingerprint } }))
    ),
  SVCB: fc
    .record({
      priority: fc.integer({ min: 0, max: 3 }),
      target: fc.oneof(hostname, fc.constant('.')),
      value: svcParams,
    })
    .map((data) => ({ data })),
  TLSA: fc.tuple(u8, u8, fc.constantFrom(0, 1, 2)).chain(([usage, selector, matching_type]) =>
    hexOf(matching_type === 1 ? 32 : matching_type === 2 ? 64 : 40).map((certificate) => ({
      data: { usage, selector, matching_type, certificate },
    }))
  ),
  // Quoted character-strings, or unquoted text (one string, however the content rule spells it).
  TXT: fc.oneof(
    fc
      .array(txtString, { minLength: 1, maxLength: 3 })
      .map((parts) => ({ content: quotedTxt(parts) })),
    fieldText.map((content) => ({ content }))
  ),
  URI: fc
    .tuple(u16, u16, fieldText)
    .map(([priority, weight, target]) => ({ priority, data: { weight, target } })),
}

/** API input of one record of `type`. */
export function recordOf(type: RecordType): fc.Arbitrary<RecordFields> {
  return BY_TYPE[type].map((f) => ({ type, ...f }))
}

/** Raw `content` for data types, adversarial text where the value goes (parsed, not `data`). */
const rawContent: fc.Arbitrary<RecordFields> = fc.oneof(
  fieldText.map((t): RecordFields => ({ type: 'CAA', content: `0 issue ${t}` })),
  fieldText.map((t): RecordFields => ({ type: 'CAA', content: `0 iodef "${t}"` })),
  fc
    .tuple(fieldText, fieldText)
    .map(([a, b]): RecordFields => ({ type: 'NAPTR', content: `1 2 "S" ${a} "${b}" .` })),
  fieldText.map((t): RecordFields => ({ type: 'URI', content: `1 ${t}`, priority: 5 })),
  fieldText.map((t): RecordFields => ({ type: 'URI', content: `1 "${t}"`, priority: 5 })),
  svcParams.map((t): RecordFields => ({ type: 'HTTPS', content: `1 . ${t}` })),
  fieldText.map((t): RecordFields => ({ type: 'SVCB', content: `1 svc.example.net ${t}` })),
  fieldText.map((t): RecordFields => ({ type: 'LOC', content: `1 2 3 N 4 5 6 E ${t}` })),
  fieldText.map((t): RecordFields => ({ type: 'CERT', content: `PKIX 1 8 ${t}` }))
)

/** API input of one record of any type, as data (or content) or as raw content. */
export const anyRecord: fc.Arbitrary<RecordFields> = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom(...RECORD_TYPES).chain(recordOf) },
  { weight: 1, arbitrary: rawContent }
)

/** The stored form of what validation accepts, or null when it refuses the input. */
export function acceptedRecord(fields: RecordFields): StoredRecord | null {
  try {
    return { type: fields.type, ...normalizeContent(fields) }
  } catch (e) {
    if (e instanceof RecordError) return null
    throw e
  }
}
