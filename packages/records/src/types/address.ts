/** @module types/address: A and AAAA. */
import { fail } from '../errors.ts'
import { canonicalIPv6, isIPv4 } from '../ip.ts'
import { TYPE_CODES } from '../record-type.ts'
import type { ContentSpec } from '../spec.ts'

export const A: ContentSpec = {
  kind: 'content',
  type: 'A',
  code: TYPE_CODES.A,
  errorCode: 9005,
  example: { fields: { content: '192.0.2.1' }, presentation: '192.0.2.1' },
  errorMessage: 'Content for A record must be a valid IPv4 address.',
  proxiable: true,
  priority: 'none',
  dataKeys: [],
  parseContent(content) {
    if (!isIPv4(content)) fail('not a dotted-quad IPv4 address')
    return content
  },
  toPresentation: (rec) => rec.content,
  fromPresentation: (rdata) => ({ type: 'A', content: rdata.trim() }),
}

export const AAAA: ContentSpec = {
  kind: 'content',
  type: 'AAAA',
  code: TYPE_CODES.AAAA,
  errorCode: 9006,
  example: { fields: { content: '2001:db8::1' }, presentation: '2001:db8::1' },
  errorMessage: 'Content for AAAA record must be a valid IPv6 address.',
  proxiable: true,
  priority: 'none',
  dataKeys: [],
  parseContent(content) {
    return canonicalIPv6(content) ?? fail('not an IPv6 address')
  },
  toPresentation: (rec) => rec.content,
  fromPresentation: (rdata) => ({ type: 'AAAA', content: rdata.trim() }),
}
