/**
 * @module Request shapes for records (zod) and their turning into validated DnsRecords.
 */
import { z } from 'zod'
import {
  isProxiable,
  isRecordType,
  isWellFormedText,
  normalizeContent,
  NOT_WELL_FORMED,
  normalizeName,
  RecordError,
  RECORD_TYPES,
  validateTtl,
  getTypeSpec,
  type RecordType,
} from '@edgedns/records'
import { Codes } from '../http/api-error.ts'
import { sameTags, type DnsRecord, type RecordSettings } from './model.ts'

const settingsSchema = z
  .object({ ipv4_only: z.boolean(), ipv6_only: z.boolean(), flatten_cname: z.boolean() })
  .partial()

/** Every field optional: PATCH bodies are partial; POST/PUT check required fields in `buildRecord`. */
export const recordFieldsSchema = z.object({
  type: z.string().optional(),
  name: z.string().optional(),
  content: z.string().optional().meta({
    description:
      'Record content. TXT content is stored and returned as sent: unquoted, it is one text (spaces included) split into 255-octet character-strings on the wire; starting with a double quote, it is RFC 1035 character-strings ("a" "b").',
  }),
  // `null` means absent (dns-lexicon sends `"data": null` with every record); it never clears.
  data: z.record(z.string(), z.unknown()).nullable().optional(),
  ttl: z.number().optional(),
  proxied: z.boolean().optional(),
  priority: z.number().optional(),
  comment: z.string().nullable().optional(),
  tags: z.array(z.string()).optional(),
  settings: settingsSchema.nullable().optional(),
  // Cloudflare's private network routing of A/AAAA records has no counterpart here: off is
  // accepted (clients send it with every record), on is refused rather than dropped.
  private_routing: z
    .literal(false, 'private_routing cannot be turned on here: records are served publicly')
    .optional(),
})
export type RecordFieldsInput = z.infer<typeof recordFieldsSchema>

export const recordWithIdSchema = recordFieldsSchema.extend({ id: z.string() })

const MAX_COMMENT_LENGTH = 500
const MAX_TAGS = 50
const MAX_TAG_LENGTH = 1024
/** A record is at most 4,096 octets on the wire; content longer than that can never fit. */
const MAX_CONTENT_LENGTH = 4096
const TAG_NAME = /^[A-Za-z0-9_-]+$/
/** Tag names a zone file's `cf_tags=` list gives to the proxy status and CNAME flattening. */
const RESERVED_TAGS = new Set(['cf-proxied', 'cf-flatten-cname'])
// Any graphic Unicode, no control characters (\n, \r, ...).
const GRAPHIC = /^[^\p{Cc}]*$/u

function fail(code: number, message: string): never {
  throw new RecordError(code, message)
}

function parseRecordType(type: string | undefined): RecordType {
  if (type === undefined) fail(Codes.invalidRequest, 'type is required')
  const upper = type.toUpperCase()
  if (!isRecordType(upper))
    fail(
      Codes.typeInvalid,
      `Unsupported DNS record type ${JSON.stringify(type)}; expected one of ${RECORD_TYPES.join(', ')}`
    )
  return upper
}

/** Leading and trailing blanks are dropped: a zone file's comment cannot carry them. */
function normalizeComment(raw: string | null | undefined): string | null {
  const comment = raw?.trim()
  if (comment === undefined || comment === '') return null
  if (comment.length > MAX_COMMENT_LENGTH)
    fail(Codes.commentInvalid, `comment must be at most ${MAX_COMMENT_LENGTH} characters`)
  if (!GRAPHIC.test(comment))
    fail(Codes.commentInvalid, 'comment must not contain control characters such as newlines')
  if (!isWellFormedText(comment)) fail(Codes.commentInvalid, `comment ${NOT_WELL_FORMED}`)
  return comment
}

function normalizeTags(tags: string[] | undefined): string[] {
  if (tags === undefined) return []
  if (tags.length > MAX_TAGS) fail(Codes.tagsInvalid, `a record can carry at most ${MAX_TAGS} tags`)
  const out = new Set<string>()
  for (const tag of tags) {
    if (tag.length > MAX_TAG_LENGTH)
      fail(Codes.tagsInvalid, `Invalid tag: a tag may be at most ${MAX_TAG_LENGTH} characters`)
    if (!isWellFormedText(tag)) fail(Codes.tagsInvalid, `Invalid tag: a tag ${NOT_WELL_FORMED}`)
    const colon = tag.indexOf(':')
    const name = (colon === -1 ? tag : tag.slice(0, colon)).toLowerCase()
    const value = colon === -1 ? '' : tag.slice(colon + 1)
    if (!TAG_NAME.test(name))
      fail(
        Codes.tagsInvalid,
        `Invalid tag ${JSON.stringify(tag)}: a tag name may contain only letters, digits, '_' and '-'`
      )
    if (RESERVED_TAGS.has(name))
      fail(
        Codes.tagsInvalid,
        `Invalid tag ${JSON.stringify(tag)}: ${name} is reserved (zone files carry the record's own setting under it)`
      )
    if (!GRAPHIC.test(value))
      fail(
        Codes.tagsInvalid,
        `Invalid tag ${JSON.stringify(tag)}: the value must not contain control characters`
      )
    out.add(colon === -1 ? name : `${name}:${value}`)
  }
  return [...out].sort()
}

function normalizeSettings(
  type: RecordType,
  proxied: boolean,
  s: RecordSettings | null | undefined
): RecordSettings {
  if (!s) return {}
  const out: RecordSettings = {}
  if (s.ipv4_only !== undefined) out.ipv4_only = s.ipv4_only
  if (s.ipv6_only !== undefined) out.ipv6_only = s.ipv6_only
  if (out.ipv4_only && out.ipv6_only)
    fail(Codes.settingsInvalid, 'settings.ipv4_only and settings.ipv6_only cannot both be true')
  if (s.flatten_cname !== undefined) {
    if (type !== 'CNAME' && s.flatten_cname)
      fail(Codes.settingsInvalid, 'settings.flatten_cname applies to CNAME records only')
    if (proxied && s.flatten_cname)
      fail(Codes.settingsInvalid, 'settings.flatten_cname is unavailable for proxied records')
    if (type === 'CNAME') out.flatten_cname = s.flatten_cname
  }
  return out
}

export interface BuildContext {
  zoneId: string
  zoneName: string
  now: string
}

/**
 * Validates a full record (POST, PUT, or a PATCH merged onto its current version) and returns it in
 * canonical form. `base` is the current record for PUT/PATCH (id and timestamps carry over).
 */
export function buildRecord(
  f: RecordFieldsInput,
  ctx: BuildContext,
  id: string,
  base?: DnsRecord
): DnsRecord {
  const type = parseRecordType(f.type)
  if (f.name === undefined) fail(Codes.invalidRequest, 'name is required')
  const name = normalizeName(f.name, ctx.zoneName)
  // A DS record is the parent zone's, at the delegation (RFC 4035 section 2.4): one at a zone's own
  // apex is never asked of it, and BIND refuses a zone holding one.
  if (type === 'DS' && name === ctx.zoneName)
    fail(
      Codes.invalidRequest,
      'DNS name is invalid. A DS record cannot be at the zone apex: it belongs in the parent zone.'
    )
  const data = f.data ?? undefined
  if (f.content === undefined && data === undefined)
    fail(Codes.invalidRequest, `content is required for ${type} records`)
  const norm = normalizeContent({ type, content: f.content, data, priority: f.priority })
  if (norm.content.length > MAX_CONTENT_LENGTH) {
    fail(
      getTypeSpec(type).errorCode,
      `Content for ${type} record is invalid: a record is at most ${MAX_CONTENT_LENGTH} octets on the wire.`
    )
  }
  if (type === 'CNAME' && norm.content === name)
    fail(
      getTypeSpec('CNAME').errorCode,
      'Content for CNAME record is invalid: a CNAME cannot point to its own name.'
    )
  const proxied = f.proxied ?? false
  if (proxied && !isProxiable(type, norm.content))
    fail(
      Codes.notProxiable,
      `This DNS record cannot be proxied: ${type} records are not proxiable.`
    )
  const ttl = proxied ? 1 : f.ttl === undefined ? 1 : validateTtl(f.ttl)
  const comment = normalizeComment(f.comment)
  const tags = normalizeTags(f.tags)
  const settings = normalizeSettings(type, proxied, f.settings)
  const rec: DnsRecord = {
    id,
    zoneId: ctx.zoneId,
    name,
    type,
    content: norm.content,
    data: norm.data,
    priority: norm.priority,
    ttl,
    proxied,
    comment,
    tags,
    settings,
    createdOn: base?.createdOn ?? ctx.now,
    modifiedOn: ctx.now,
    commentModifiedOn: comment === null ? null : ctx.now,
    tagsModifiedOn: tags.length === 0 ? null : ctx.now,
  }
  if (base) {
    if (base.comment === rec.comment) rec.commentModifiedOn = base.commentModifiedOn
    if (sameTags(base.tags, rec.tags)) rec.tagsModifiedOn = base.tagsModifiedOn
  }
  return rec
}

/** PATCH: unspecified fields keep their current values; `data: null` counts as unspecified. */
export function mergePatch(base: DnsRecord, f: RecordFieldsInput): RecordFieldsInput {
  const type = f.type ?? base.type
  const typeChanged = type.toUpperCase() !== base.type
  const data = f.data ?? undefined
  const keepsValue = f.content === undefined && data === undefined && !typeChanged
  // An SRV record's priority is part of its data: a top-level one changes it there.
  const kept =
    keepsValue && base.type === 'SRV' && base.data !== null && f.priority !== undefined
      ? { ...base.data, priority: f.priority }
      : base.data
  return {
    type,
    name: f.name ?? base.name,
    content: keepsValue ? (base.data === null ? base.content : undefined) : f.content,
    data: keepsValue ? (kept ?? undefined) : data,
    priority: f.priority ?? base.priority ?? undefined,
    ttl: f.ttl ?? base.ttl,
    proxied: f.proxied ?? base.proxied,
    comment: f.comment === undefined ? base.comment : f.comment,
    tags: f.tags ?? base.tags,
    settings: f.settings === undefined ? base.settings : f.settings,
  }
}
