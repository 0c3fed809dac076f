/**
 * @module Cloudflare v4 response envelope builders for answers (failures: on-error.ts).
 */
import type { Context } from 'hono'
import type { ContentfulStatusCode } from 'hono/utils/http-status'

export interface ResultInfo {
  page: number
  per_page: number
  count: number
  total_count: number
  total_pages: number
  /** Keyset paging (`GET /zones`): pass `after` back as `cursor` for the next page. */
  cursors?: { after?: string }
}

/** A page reached by cursor: no page number and no total (counting every row is what a cursor avoids). */
export interface CursorResultInfo {
  per_page: number
  count: number
  cursors: { after?: string }
}

/** A note beside a successful result, in the envelope's `messages`. */
export interface EnvelopeMessage {
  code: number
  message: string
}

export function ok<T>(
  c: Context,
  result: T,
  status: ContentfulStatusCode = 200,
  messages: EnvelopeMessage[] = []
): Response {
  return c.json({ success: true, errors: [], messages, result }, status)
}

export function okList<T>(c: Context, result: T[], info: ResultInfo | CursorResultInfo): Response {
  return c.json({ success: true, errors: [], messages: [], result, result_info: info })
}

export function resultInfo(
  page: number,
  perPage: number,
  count: number,
  total: number
): ResultInfo {
  return {
    page,
    per_page: perPage,
    count,
    total_count: total,
    total_pages: Math.max(1, Math.ceil(total / perPage)),
  }
}
