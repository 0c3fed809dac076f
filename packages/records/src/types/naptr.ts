/**
 * @module types/naptr: NAPTR (RFC 3403) — content
 * `order preference "flags" "service" "regexp" replacement`; the replacement is kept fully
 * qualified (trailing dot), as Cloudflare answers it.
 */
import { z } from 'zod'
import { quote, text, tokenize, utf8 } from '../charstring.ts'
import { fail } from '../errors.ts'
import { str, text as textField, u16 } from '../fields.ts'
import { decodeName, fqdn, nameFromPresentation, parseHostname } from '../names.ts'
import { checkNaptrRegexp } from '../naptr-regexp.ts'
import { numberToken } from './common.ts'
import { defineData } from './define.ts'

const schema = z.object({
  order: u16(),
  preference: u16(),
  flags: str(),
  service: textField(),
  regex: textField(),
  replacement: str(),
})
type NaptrData = z.infer<typeof schema>

/** The replacement comes back as written (escapes undecoded), for the caller's name rules. */
function parse(content: string) {
  const tokens = tokenize(content)
  if (tokens.length !== 6)
    fail('expected "<order> <preference> <flags> <service> <regexp> <replacement>"')
  const [order, preference, flags, service, regex] = tokens.map((x) => text(x.bytes))
  return {
    order: numberToken(order),
    preference: numberToken(preference),
    flags,
    service,
    regex,
    replacement: tokens[5]!.written,
  }
}

function format(d: NaptrData, replacement: string): string {
  const strings = [d.flags, d.service, d.regex].map((x) => quote(x)).join(' ')
  return `${d.order} ${d.preference} ${strings} ${replacement}`
}

function charString(value: string, field: string): string {
  if (utf8(value).length > 255) fail(`${field} must be at most 255 octets`)
  return value
}

export const NAPTR = defineData<NaptrData>({
  type: 'NAPTR',
  errorCode: 9127,
  example: {
    fields: { content: '100 10 "S" "SIP+D2U" "" _sip._udp.example.com' },
    presentation: '100 10 "S" "SIP+D2U" "" _sip._udp.example.com.',
  },
  dataSchema: schema,
  parseContent(content) {
    const d = parse(content)
    return { data: { ...d, replacement: decodeName(d.replacement) } }
  },
  canonicalize(d) {
    if (!/^[A-Za-z0-9]*$/.test(d.flags)) fail('data.flags may only contain letters and digits')
    checkNaptrRegexp(d.regex)
    return {
      ...d,
      flags: charString(d.flags, 'data.flags'),
      service: charString(d.service, 'data.service'),
      regex: charString(d.regex, 'data.regex'),
      // Fully qualified (trailing dot), as Cloudflare keeps it.
      replacement: fqdn(parseHostname(d.replacement, 'data.replacement', true)),
    }
  },
  formatData: (d) => format(d, d.replacement),
  toPresentation: (rec) => format(rec.data as NaptrData, fqdn((rec.data as NaptrData).replacement)),
  fromPresentation(rdata, origin) {
    const d = parse(rdata)
    return {
      type: 'NAPTR',
      data: { ...d, replacement: nameFromPresentation(d.replacement, origin) },
    }
  },
})
