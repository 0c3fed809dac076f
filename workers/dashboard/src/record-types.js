/**
 * @module What the add/edit form shows for each record type, and how its values become the API's
 * record body (`content`, or `data` plus `priority`, as Cloudflare's API takes them) and back.
 */
import { API_TYPES } from '@edgedns/dns-facts'

/** The API's record types, in Cloudflare's (alphabetical) order, from the one type table. */
export const RECORD_TYPES = API_TYPES
export const PROXIABLE = new Set(['A', 'AAAA', 'CNAME'])

const text = (key, label, hint = '') => ({ key, label, kind: 'text', hint })
const area = (key, label, hint = '') => ({ key, label, kind: 'textarea', hint })
const num = (key, label, min, max, hint = '') => ({ key, label, kind: 'number', min, max, hint })
const pick = (key, label, options) => ({ key, label, kind: 'select', options })

const u8 = (key, label, hint) => num(key, label, 0, 255, hint)
const u16 = (key, label, hint) => num(key, label, 0, 65535, hint)

const LOC_FIELDS = [
  num('data.lat_degrees', 'Latitude degrees', 0, 90),
  num('data.lat_minutes', 'Latitude minutes', 0, 59),
  num('data.lat_seconds', 'Latitude seconds', 0, 59.999),
  pick('data.lat_direction', 'Latitude direction', ['N', 'S']),
  num('data.long_degrees', 'Longitude degrees', 0, 180),
  num('data.long_minutes', 'Longitude minutes', 0, 59),
  num('data.long_seconds', 'Longitude seconds', 0, 59.999),
  pick('data.long_direction', 'Longitude direction', ['E', 'W']),
  num('data.altitude', 'Altitude (m)', -100000, 42849672.95),
  num('data.size', 'Size (m)', 0, 90000000),
  num('data.precision_horz', 'Horizontal precision (m)', 0, 90000000),
  num('data.precision_vert', 'Vertical precision (m)', 0, 90000000),
]

const TLSA_FIELDS = [
  u8('data.usage', 'Usage', '0–3 (3 = DANE-EE)'),
  u8('data.selector', 'Selector', '0 = full certificate, 1 = public key'),
  u8('data.matching_type', 'Matching type', '0 = exact, 1 = SHA-256, 2 = SHA-512'),
  area('data.certificate', 'Certificate association data', 'hex'),
]

/** Fields per type, besides name, TTL, proxied and comment. */
const TYPE_FIELDS = {
  A: [text('content', 'IPv4 address', 'e.g. 192.0.2.1')],
  AAAA: [text('content', 'IPv6 address', 'e.g. 2001:db8::1')],
  CNAME: [text('content', 'Target', 'a host name')],
  NS: [text('content', 'Name server')],
  PTR: [text('content', 'Domain name')],
  TXT: [area('content', 'Text')],
  OPENPGPKEY: [area('content', 'Public key', 'base64')],
  MX: [u16('priority', 'Priority', 'lower is preferred'), text('content', 'Mail server')],
  URI: [
    u16('priority', 'Priority'),
    u16('data.weight', 'Weight'),
    text('data.target', 'Target URI'),
  ],
  SRV: [
    text('srv.service', 'Service', 'e.g. _sip'),
    pick('srv.protocol', 'Protocol', ['_tcp', '_udp', '_tls']),
    u16('data.priority', 'Priority'),
    u16('data.weight', 'Weight'),
    u16('data.port', 'Port'),
    text('data.target', 'Target'),
  ],
  CAA: [
    u8('data.flags', 'Flags', '0, or 128 = critical'),
    pick('data.tag', 'Tag', ['issue', 'issuewild', 'iodef', 'issuemail', 'issuevmc']),
    text('data.value', 'Value', 'e.g. letsencrypt.org'),
  ],
  HTTPS: [
    u16('data.priority', 'Priority', '0 = alias mode'),
    text('data.target', 'Target', '. = the owner name'),
    text('data.value', 'Parameters', 'e.g. alpn="h2,h3" ipv4hint=192.0.2.1'),
  ],
  SVCB: [
    u16('data.priority', 'Priority', '0 = alias mode'),
    text('data.target', 'Target', '. = the owner name'),
    text('data.value', 'Parameters', 'e.g. alpn="h2" port=8443'),
  ],
  TLSA: TLSA_FIELDS,
  SMIMEA: TLSA_FIELDS,
  SSHFP: [
    u8('data.algorithm', 'Algorithm', '1 RSA, 2 DSA, 3 ECDSA, 4 Ed25519'),
    u8('data.type', 'Fingerprint type', '1 SHA-1, 2 SHA-256'),
    text('data.fingerprint', 'Fingerprint', 'hex'),
  ],
  DS: [
    u16('data.key_tag', 'Key tag'),
    u8('data.algorithm', 'Algorithm'),
    u8('data.digest_type', 'Digest type', '2 = SHA-256'),
    area('data.digest', 'Digest', 'hex'),
  ],
  DNSKEY: [
    u16('data.flags', 'Flags', '256 ZSK, 257 KSK'),
    u8('data.protocol', 'Protocol', 'always 3'),
    u8('data.algorithm', 'Algorithm'),
    area('data.public_key', 'Public key', 'base64'),
  ],
  CERT: [
    u16('data.type', 'Certificate type'),
    u16('data.key_tag', 'Key tag'),
    u8('data.algorithm', 'Algorithm'),
    area('data.certificate', 'Certificate', 'base64'),
  ],
  NAPTR: [
    u16('data.order', 'Order'),
    u16('data.preference', 'Preference'),
    text('data.flags', 'Flags', 'e.g. U'),
    text('data.service', 'Service', 'e.g. E2U+sip'),
    text('data.regex', 'Regular expression'),
    text('data.replacement', 'Replacement', '. when a regex is used'),
  ],
  LOC: LOC_FIELDS,
}

const DEFAULTS = {
  'srv.protocol': '_tcp',
  'data.tag': 'issue',
  'data.lat_direction': 'N',
  'data.long_direction': 'E',
  'data.flags': '',
}

export function fieldsFor(type) {
  return TYPE_FIELDS[type] ?? [text('content', 'Content')]
}

/** The zone-relative form of a record name: '@' for the apex. */
export function relativeName(name, zoneName) {
  if (name === zoneName) return '@'
  return name.endsWith(`.${zoneName}`) ? name.slice(0, -zoneName.length - 1) : name
}

/** Empty form values for a new record of `type`. */
export function emptyValues(type) {
  const values = { type, name: '', ttl: '1', proxied: false, comment: '' }
  for (const f of fieldsFor(type))
    values[f.key] = DEFAULTS[f.key] ?? (f.kind === 'select' ? f.options[0] : '')
  if (type === 'CAA') values['data.flags'] = '0'
  return values
}

/** Form values for an existing record (the edit form). */
export function valuesFromRecord(record, zoneName) {
  const values = {
    ...emptyValues(record.type),
    name: relativeName(record.name, zoneName),
    ttl: String(record.ttl),
    proxied: record.proxied,
    comment: record.comment ?? '',
  }
  for (const f of fieldsFor(record.type)) {
    if (f.key === 'content') values.content = record.content
    else if (f.key === 'priority')
      values.priority = record.priority === undefined ? '' : String(record.priority)
    else if (f.key.startsWith('data.')) {
      const v = record.data?.[f.key.slice(5)]
      values[f.key] = v === undefined || v === null ? '' : String(v)
    }
  }
  if (record.type === 'SRV') {
    const [service = '', protocol = '_tcp', ...rest] = values.name.split('.')
    values['srv.service'] = service
    values['srv.protocol'] = protocol
    values.name = rest.length === 0 ? '@' : rest.join('.')
  }
  return values
}

function numberOrText(field, raw) {
  if (field.kind !== 'number') return raw
  if (raw === '') return undefined
  const n = Number(raw)
  return Number.isFinite(n) ? n : raw
}

/** The API body (POST or PUT) for form values. Empty fields are left out so the API names them. */
export function bodyFromValues(values) {
  const type = values.type
  const body = { type, name: values.name.trim() || '@', ttl: Number(values.ttl) }
  if (PROXIABLE.has(type)) body.proxied = Boolean(values.proxied)
  if (values.comment?.trim()) body.comment = values.comment.trim()
  const data = {}
  let hasData = false
  for (const f of fieldsFor(type)) {
    const v = numberOrText(f, String(values[f.key] ?? '').trim())
    if (f.key === 'content') body.content = v
    else if (f.key === 'priority') body.priority = v
    else if (f.key.startsWith('data.')) {
      hasData = true
      if (v !== undefined && v !== '') data[f.key.slice(5)] = v
    }
  }
  if (type === 'SRV') {
    const host = body.name === '@' ? '' : `.${body.name}`
    body.name = `${values['srv.service'].trim()}.${values['srv.protocol']}${host}`
  }
  if (hasData) body.data = data
  return body
}

/** One line of a record's content for tables and confirmations. */
export function describeRecord(r) {
  return `${r.type} ${r.name} ${showsPriority(r) ? `${r.priority} ` : ''}${r.content}`
}

/** MX, URI and SRV keep their priority outside `content`; HTTPS/SVCB content starts with it. */
export function showsPriority(r) {
  return r.priority !== undefined && (r.type === 'MX' || r.type === 'URI' || r.type === 'SRV')
}
