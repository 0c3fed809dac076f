/**
 * @module Reads the import form: `file` as a file part or a plain text field (the official SDK
 * sends a string as a field), and `proxied` as the string 'true' or 'false'.
 */
import type { Context } from 'hono'
import { ApiError, Codes } from '../http/api-error.ts'
import { decodeUtf8Strict } from '../http/body.ts'

export interface ImportForm {
  text: string
  proxied: boolean
}

const FORM_HINT =
  'Failed to parse form data. Make sure the Content-Type is multipart/form-data with a "file" field holding the zone file.'

function tooLarge(max: number): ApiError {
  return new ApiError(
    413,
    Codes.bodyTooLarge,
    `The zone file is larger than the import limit of ${max} bytes`
  )
}

export async function readImportForm(c: Context, maxBytes: number): Promise<ImportForm> {
  const type = (c.req.header('content-type') ?? '').toLowerCase()
  if (!type.startsWith('multipart/form-data')) {
    throw new ApiError(
      415,
      Codes.importFormData,
      `${FORM_HINT} Got ${type === '' ? 'no Content-Type' : JSON.stringify(type.split(';')[0])}.`
    )
  }
  const length = Number(c.req.header('content-length'))
  if (Number.isFinite(length) && length > maxBytes + 64 * 1024) throw tooLarge(maxBytes)
  // Decoded strictly first: FormData would quietly turn invalid UTF-8 into U+FFFD.
  const raw = await c.req.arrayBuffer()
  if (raw.byteLength > maxBytes + 64 * 1024) throw tooLarge(maxBytes)
  decodeUtf8Strict(raw, 'The import form')
  let form: FormData
  try {
    form = await new Response(raw, {
      headers: { 'content-type': c.req.header('content-type') ?? '' },
    }).formData()
  } catch {
    throw ApiError.badRequest(Codes.importFormData, FORM_HINT)
  }
  const file = form.get('file')
  if (file === null)
    throw ApiError.badRequest(Codes.importFormData, `${FORM_HINT} The "file" field is missing.`)
  const size = typeof file === 'string' ? file.length : file.size
  if (size > maxBytes) throw tooLarge(maxBytes)
  const text = typeof file === 'string' ? file : await file.text()
  return { text, proxied: parseProxied(form.get('proxied')) }
}

function parseProxied(v: File | string | null): boolean {
  if (v === null) return false
  const s = (typeof v === 'string' ? v : '').trim().toLowerCase()
  if (s === 'true') return true
  if (s === 'false' || s === '') return false
  throw ApiError.badRequest(
    Codes.invalidRequest,
    `proxied must be "true" or "false"; got ${JSON.stringify(s)}`
  )
}
