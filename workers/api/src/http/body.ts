/**
 * @module Request body parsing with specific errors: malformed JSON and schema violations.
 */
import type { Context } from 'hono'
import type { z } from 'zod'
import { ApiError, Codes } from './api-error.ts'

const strictUtf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false })

/**
 * Decodes a request body as UTF-8, refusing invalid byte sequences instead of turning them into
 * U+FFFD (which would then be stored, or punycoded into a name nobody typed).
 */
export function decodeUtf8Strict(bytes: ArrayBuffer | Uint8Array, what = 'Request body'): string {
  try {
    return strictUtf8.decode(bytes)
  } catch {
    throw ApiError.badRequest(Codes.invalidUtf8, `${what} is not valid UTF-8`)
  }
}

export async function readJson(c: Context): Promise<unknown> {
  const text = decodeUtf8Strict(await c.req.arrayBuffer())
  if (text.trim() === '')
    throw ApiError.badRequest(Codes.invalidJson, 'Request body is empty; expected a JSON object')
  return parseJsonText(text)
}

function parseJsonText(text: string): unknown {
  try {
    return JSON.parse(text)
  } catch (e) {
    throw ApiError.badRequest(
      Codes.invalidJson,
      `Malformed JSON in request body: ${(e as Error).message}`
    )
  }
}

/** Parses with a zod schema; the first issue becomes a 400 naming the offending field. */
export function parseWith<S extends z.ZodType>(
  schema: S,
  input: unknown,
  code: number = Codes.invalidRequest,
  where = ''
): z.output<S> {
  const r = schema.safeParse(input)
  if (r.success) return r.data
  const issue = r.error.issues[0]!
  const path = [where, ...issue.path.map(String)].filter((p) => p !== '').join('.')
  throw ApiError.badRequest(code, path ? `${path}: ${issue.message}` : issue.message)
}

export async function readBody<S extends z.ZodType>(c: Context, schema: S): Promise<z.output<S>> {
  return parseWith(schema, await readJson(c))
}

/** `readBody` for a route whose body may be left out: no body (or only whitespace) reads as `{}`. */
export async function readOptionalBody<S extends z.ZodType>(
  c: Context,
  schema: S
): Promise<z.output<S>> {
  const text = decodeUtf8Strict(await c.req.arrayBuffer())
  return parseWith(schema, text.trim() === '' ? {} : parseJsonText(text))
}
