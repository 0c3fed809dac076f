/**
 * @module Reads the import form: `file` as a file part or a plain text field (the official SDK
 * sends a string as a field), and `proxied` as the string 'true' or 'false'.
 */
import type { Context } from 'hono'
import { ApiError, Codes } from '../http/api-error.ts'
import { decodeUtf8Strict } from '../http/body.ts'
import { firstInvalidUtf8 } from './invalid-utf8.ts'

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
  let valid = true
  try {
    decodeUtf8Strict(raw, 'The import form')
  } catch (e) {
    valid = false
    if (!(e instanceof ApiError)) throw e
  }
  let form: FormData
  try {
    form = await new Response(raw, {
      headers: { 'content-type': c.req.header('content-type') ?? '' },
    }).formData()
  } catch {
    throw ApiError.badRequest(Codes.importFormData, FORM_HINT)
  }
  if (!valid) throw await invalidUtf8(form.get('file'))
  const file = form.get('file')
  if (file === null)
    throw ApiError.badRequest(Codes.importFormData, `${FORM_HINT} The "file" field is missing.`)
  const size = typeof file === 'string' ? file.length : file.size
  if (size > maxBytes) throw tooLarge(maxBytes)
  const text = typeof file === 'string' ? file : await file.text()
  return { text, proxied: parseProxied(form.get('proxied')) }
}

/** The error for a form that is not UTF-8: where in the zone file, when the file is a file part. */
async function invalidUtf8(file: File | string | null): Promise<ApiError> {
  const at =
    typeof file === 'object' && file !== null
      ? firstInvalidUtf8(new Uint8Array(await file.arrayBuffer()))
      : null
  if (at === null)
    return ApiError.badRequest(Codes.invalidUtf8, 'The import form is not valid UTF-8')
  const hex = at.byte.toString(16).toUpperCase().padStart(2, '0')
  return ApiError.badRequest(
    Codes.invalidUtf8,
    `line ${at.line}: the zone file is not valid UTF-8 (byte 0x${hex} at column ${at.column}); zone files are read as UTF-8, so convert a file in another encoding first (for example with iconv -f latin1 -t utf-8)`
  )
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
