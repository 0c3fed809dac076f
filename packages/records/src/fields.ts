/** @module fields: zod builders for `data` fields, with messages that name the range. */
import { z } from 'zod'
import { fail } from './errors.ts'
import { isWellFormedText, NOT_WELL_FORMED } from './well-formed.ts'

const required = (text: string) => ({
  error: (iss: { input?: unknown }) => (iss.input === undefined ? 'is required' : text),
})

/** Integer in min..max. */
export function int(min: number, max: number) {
  const m = required(`must be an integer between ${min} and ${max}`)
  return z.number(m).int(m).min(min, m).max(max, m)
}

export const u8 = () => int(0, 255)
export const u16 = () => int(0, 65535)

/** Finite number in min..max. */
export function num(min: number, max: number) {
  const m = required(`must be a number between ${min} and ${max}`)
  return z.number(m).min(min, m).max(max, m)
}

export function str() {
  return z.string(required('must be a string'))
}

/**
 * A string whose octets are its UTF-8 encoding: a lone surrogate has none, so it is refused
 * rather than stored as text that the zone file and the wire would carry as U+FFFD.
 */
export function text() {
  return str().refine(isWellFormedText, { error: NOT_WELL_FORMED })
}

export function oneOf<const T extends readonly [string, ...string[]]>(values: T) {
  return z.enum(values, required(`must be one of ${values.join(', ')}`))
}

/** Run a schema over `data`; the first issue becomes a FieldError naming `data.<field>`. */
export function parseWith<D>(schema: z.ZodType<D>, data: unknown): D {
  if (data === null || typeof data !== 'object' || Array.isArray(data)) {
    fail('data must be an object')
  }
  const r = schema.safeParse(data)
  if (r.success) return r.data
  const issue = r.error.issues[0]
  const path = issue?.path.map(String).join('.') ?? ''
  return fail(`data${path ? `.${path}` : ''} ${issue?.message ?? 'is invalid'}`)
}

/** Parse a decimal integer token, naming the field on failure. */
export function intToken(token: string | undefined, field: string): number {
  if (token === undefined || !/^\d+$/.test(token)) {
    fail(`${field} must be an integer, got ${token === undefined ? 'nothing' : `"${token}"`}`)
  }
  return Number(token)
}
