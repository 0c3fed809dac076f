/** @module types/define: builds a DataSpec with the defaults most data types share. */
import type { z } from 'zod'
import { TYPE_CODES, type RecordType } from '../record-type.ts'
import type {
  DataSpec,
  ParsedContent,
  PriorityRule,
  RecordFields,
  StoredRecord,
  TypeExample,
} from '../spec.ts'

interface DataDefinition<D extends Record<string, unknown>> {
  type: RecordType
  errorCode: number
  example: TypeExample
  priority?: PriorityRule
  dataSchema: z.ZodObject & z.ZodType<D>
  parseContent(content: string, priority: number | undefined): ParsedContent
  canonicalize?(data: D): D
  formatData(data: D): string
  /** defaults to formatData(data) */
  toPresentation?(rec: StoredRecord): string
  /** defaults to parsing the rdata like content */
  fromPresentation?(rdata: string, origin: string): RecordFields
}

/** Fill in kind, IANA code, dataKeys and the content-like presentation defaults. */
export function defineData<D extends Record<string, unknown>>(def: DataDefinition<D>): DataSpec {
  const spec: DataSpec<D> = {
    kind: 'data',
    type: def.type,
    code: TYPE_CODES[def.type],
    errorCode: def.errorCode,
    example: def.example,
    proxiable: false,
    priority: def.priority ?? 'none',
    dataKeys: Object.keys(def.dataSchema.shape),
    dataSchema: def.dataSchema,
    parseContent: def.parseContent,
    canonicalize: def.canonicalize ?? ((d) => d),
    formatData: def.formatData,
    toPresentation: def.toPresentation ?? ((rec) => def.formatData(rec.data as D)),
    fromPresentation:
      def.fromPresentation ??
      ((rdata) => ({ type: def.type, data: def.parseContent(rdata, undefined).data })),
  }
  return spec as unknown as DataSpec
}
