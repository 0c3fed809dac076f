/**
 * @module Identifiers and timestamps.
 */

/** 32 lowercase hex characters, like Cloudflare's ids. Random: for zones, tokens, accounts. */
export function newId(): string {
  return crypto.randomUUID().replaceAll('-', '')
}

/**
 * Record ids for one batch: 12 hex of milliseconds, 10 random hex per batch, then a 10-hex counter.
 * Ids of a batch sort together and after older ones, so bulk inserts append to the id index
 * instead of touching random pages, which keeps large inserts fast.
 */
export function recordIdGenerator(nowMs = Date.now()): () => string {
  const prefix = nowMs.toString(16).padStart(12, '0').slice(-12) + hex(5)
  let n = 0
  return () => prefix + (n++).toString(16).padStart(10, '0')
}

function hex(bytes: number): string {
  return [...crypto.getRandomValues(new Uint8Array(bytes))]
    .map((b) => b.toString(16).padStart(2, '0'))
    .join('')
}

const ID_PATTERN = /^[0-9a-f]{32}$/

export function isId(s: string): boolean {
  return ID_PATTERN.test(s)
}

export function nowIso(): string {
  return new Date().toISOString()
}
