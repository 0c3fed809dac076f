/**
 * @module Identifiers and timestamps.
 */

/** 32 lowercase hex characters, like Cloudflare's ids. */
export function newId(): string {
  return crypto.randomUUID().replaceAll('-', '')
}

export const ID_PATTERN = /^[0-9a-f]{32}$/

export function isId(s: string): boolean {
  return ID_PATTERN.test(s)
}

export function nowIso(): string {
  return new Date().toISOString()
}
