/**
 * @module content: the registry-driven entry points — normalizeContent (API input),
 * toPresentation (zone export, KV, DoH JSON) and fromPresentation (zone import).
 */
import { fromGenericText, RdataError } from '@edgedns/dns-wire'
import { ERROR_CODES, FieldError, RecordError, fail } from './errors.ts'
import { parseWith } from './fields.ts'
import { withReason } from './message.ts'
import { TYPE_CODES, type RecordType } from './record-type.ts'
import { getTypeSpec } from './registry.ts'
import type { NormalizedContent, RecordFields, StoredRecord, TypeSpec } from './spec.ts'

/** Run `fn`, turning a FieldError into the type's RecordError. */
function asRecordError<T>(spec: TypeSpec, fn: () => T): T {
  try {
    return fn()
  } catch (e) {
    if (!(e instanceof FieldError)) throw e
    const message =
      spec.errorMessage ?? withReason(`Content for ${spec.type} record is invalid.`, e.message)
    throw new RecordError(spec.errorCode, message)
  }
}

/** Record-level priority for MX and URI: required, integer 0..65535. */
function checkPriority(priority: unknown): number {
  if (priority === undefined || priority === null) {
    throw new RecordError(ERROR_CODES.PRIORITY_REQUIRED, 'priority is a required field.')
  }
  if (
    typeof priority !== 'number' ||
    !Number.isInteger(priority) ||
    priority < 0 ||
    priority > 65535
  ) {
    throw new RecordError(
      ERROR_CODES.PRIORITY_INVALID,
      'Invalid priority, priority must be set and be between 0 and 65535'
    )
  }
  return priority
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v)
}

function contentOf(fields: RecordFields): string | undefined {
  const c = fields.content
  if (c === undefined || c === null) return undefined
  if (typeof c !== 'string') fail('content must be a string')
  return c.trim() === '' ? undefined : c.trim()
}

/**
 * Validate and canonicalise content/data/priority for one record. For data-based types `data`
 * wins and content is formatted from it; content alone is parsed into data.
 * @example normalizeContent({ type: 'MX', content: 'Mail.Example.com.', priority: 10 })
 * // { content: 'mail.example.com', data: null, priority: 10 }
 */
export function normalizeContent(fields: RecordFields): NormalizedContent {
  const spec = getTypeSpec(fields.type)
  if (spec.kind === 'content') {
    const priority = spec.priority === 'required' ? checkPriority(fields.priority) : null
    const content = asRecordError(spec, () =>
      spec.parseContent(contentOf(fields) ?? fail('content is required'))
    )
    return { content, data: null, priority }
  }
  let contentPriority: number | undefined
  const data = asRecordError(spec, () => {
    let raw: unknown = fields.data
    if (fields.type === 'SRV' && isObject(raw) && raw.priority === undefined)
      // An SRV record's priority lives in its data; a top-level one fills it in, as it does
      // when the record is given as content.
      raw = fields.priority === undefined ? raw : { ...raw, priority: fields.priority }
    if (raw === undefined || raw === null) {
      const content = contentOf(fields) ?? fail('data is required')
      const parsed = spec.parseContent(content, fields.priority)
      raw = parsed.data
      contentPriority = parsed.priority
    }
    return spec.canonicalize(parseWith(spec.dataSchema, raw))
  })
  let priority: number | null = null
  if (spec.priority === 'required') priority = checkPriority(fields.priority ?? contentPriority)
  if (spec.priority === 'data') priority = data.priority as number
  return { content: spec.formatData(data), data, priority }
}

/**
 * RFC presentation rdata for a stored record: names absolute with a trailing dot and the
 * priority folded in where the wire has it (MX, SRV, URI, SVCB/HTTPS).
 * @example toPresentation({ type: 'MX', content: 'mx.example.com', data: null, priority: 10 })
 * // '10 mx.example.com.'
 */
export function toPresentation(rec: StoredRecord): string {
  const spec = getTypeSpec(rec.type)
  if (spec.kind === 'data' && rec.data === null) {
    // a data type stored without data: recover it from the content
    const n = normalizeContent({
      type: rec.type,
      content: rec.content,
      priority: rec.priority ?? undefined,
    })
    return asRecordError(spec, () =>
      spec.toPresentation({ ...rec, data: n.data, priority: n.priority })
    )
  }
  // A stored value that cannot be written as valid presentation is a RecordError, never a bad line.
  return asRecordError(spec, () => spec.toPresentation(rec))
}

/**
 * Parse zone-file rdata into API fields ready for normalizeContent. Names may be relative to
 * `origin`, '@', or absolute with a trailing dot.
 * @example fromPresentation('MX', '10 mail', 'example.com.')
 * // { type: 'MX', priority: 10, content: 'mail.example.com' }
 */
export function fromPresentation(type: RecordType, rdata: string, origin: string): RecordFields {
  const spec = getTypeSpec(type)
  const text = ownPresentation(spec, rdata)
  return asRecordError(spec, () => spec.fromPresentation(text, origin))
}

/**
 * Rdata in RFC 3597's generic form (`\# 4 0a000001`), which BIND and others accept for every
 * type, as the type's own presentation; other text as given.
 */
function ownPresentation(spec: TypeSpec, rdata: string): string {
  let text: string
  try {
    text = fromGenericText(TYPE_CODES[spec.type], rdata)
  } catch (e) {
    if (!(e instanceof RdataError)) throw e
    const reason = e.message.slice(e.type.length + 2)
    throw new RecordError(
      spec.errorCode,
      withReason(`Content for ${spec.type} record is invalid.`, `RFC 3597 rdata: ${reason}`)
    )
  }
  if (text !== rdata && text.trimStart().startsWith('\\#'))
    throw new RecordError(
      spec.errorCode,
      `Content for ${spec.type} record is invalid. Its RFC 3597 octets are not valid ${spec.type} rdata.`
    )
  return text
}
