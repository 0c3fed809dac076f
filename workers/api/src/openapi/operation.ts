/** @module The shape of an operation in the API's OpenAPI description, and of its parameters. */
import type { z } from 'zod'

export interface Param {
  name: string
  description: string
  type?: 'string' | 'integer' | 'boolean'
  enum?: string[]
}

export interface Operation {
  method: 'get' | 'post' | 'put' | 'patch' | 'delete'
  /** OpenAPI path template under /client/v4, e.g. /zones/{zone_id}. */
  path: string
  tag: string
  summary: string
  /** Longer text (CommonMark) where the summary cannot say enough. */
  description?: string
  query?: Param[]
  body?: z.ZodType
  /** multipart/form-data body (import). */
  form?: z.ZodType
  /** A binary body of this media type (a DNS message). */
  binaryBody?: string
  /**
   * The `result` of the envelope; `text` for a text/plain answer, `html` for a page, `binary` for
   * an application/octet-stream answer.
   */
  result: z.ZodType | 'text' | 'html' | 'json' | 'binary'
  list?: boolean
  /** The success status when not 200 (202: started, runs in the background). */
  status?: 202
  /** No Authorization header needed. */
  public?: boolean
}
