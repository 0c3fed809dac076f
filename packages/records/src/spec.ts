/** @module spec: the shape of one record-type entry in the registry. */
import type { z } from 'zod'
import type { RecordType } from './record-type.ts'

/** What the API received for one record (after JSON parse). */
export interface RecordFields {
  type: RecordType
  content?: string
  data?: Record<string, unknown>
  priority?: number
}

/** Validated, canonical content/data/priority of one record. */
export interface NormalizedContent {
  content: string
  data: Record<string, unknown> | null
  priority: number | null
}

/** A stored record as the presentation functions see it. */
export interface StoredRecord {
  type: RecordType
  content: string
  data: Record<string, unknown> | null
  priority: number | null
}

/** Where the record-level `priority` comes from. */
export type PriorityRule = 'none' | 'required' | 'data'

/** One valid API input of a type and the presentation rdata it becomes (registry-driven tests). */
export interface TypeExample {
  fields: Omit<RecordFields, 'type'>
  presentation: string
}

interface BaseSpec {
  type: RecordType
  /** IANA RR type number */
  code: number
  /** Cloudflare error code for invalid content/data of this type */
  errorCode: number
  /** Fixed error message (A, AAAA); otherwise `Content for <T> record is invalid. <reason>.` */
  errorMessage?: string
  proxiable: boolean
  priority: PriorityRule
  /** a valid API input and its presentation rdata: every registry-driven test uses it */
  example: TypeExample
  /** RFC presentation rdata (absolute names with trailing dot) */
  toPresentation(rec: StoredRecord): string
  /** presentation rdata (names relative to `origin` or absolute) -> API fields */
  fromPresentation(rdata: string, origin: string): RecordFields
}

/** Types whose API form is `content` (A, AAAA, CNAME, MX, NS, OPENPGPKEY, PTR, TXT). */
export interface ContentSpec extends BaseSpec {
  kind: 'content'
  dataKeys: readonly []
  /** validate and canonicalise trimmed, non-empty content; throws FieldError */
  parseContent(content: string): string
}

/** Types whose API form is `data`; content is formatted from it. */
export interface DataSpec<
  D extends Record<string, unknown> = Record<string, unknown>,
> extends BaseSpec {
  kind: 'data'
  dataKeys: readonly string[]
  /** zod shape of `data` (field types and ranges) */
  dataSchema: z.ZodType<D>
  /** content -> raw (unvalidated) data, plus a priority when the content carries one */
  parseContent(content: string, priority: number | undefined): ParsedContent
  /** semantic checks and canonical form after the schema passed; throws FieldError */
  canonicalize(data: D): D
  /** Cloudflare `content` formatted from canonical data */
  formatData(data: D): string
}

export interface ParsedContent {
  data: Record<string, unknown>
  priority?: number
}

export type TypeSpec = ContentSpec | DataSpec
