import { describe, expect, it } from 'vitest'
import { VerifiedTokens } from './verified-tokens.ts'

const REFRESH = 5_000
const MAX_AGE = 60_000

/** A cache on a clock the test moves, and a database whose answer the test sets. */
function setup() {
  let clock = 1_000_000
  const cache = new VerifiedTokens<string>({
    refreshAfterMs: REFRESH,
    maxAgeMs: MAX_AGE,
    maxEntries: 3,
    now: () => clock,
  })
  const db = { row: 'active' as string | null, reads: 0, hang: false }
  const read = () => {
    db.reads++
    if (db.hang) return new Promise<string | null>(() => {})
    return Promise.resolve(db.row)
  }
  const background: Promise<unknown>[] = []
  const get = (key = 'hash') => cache.get(key, read, (work) => background.push(work))
  return {
    cache,
    db,
    background,
    get,
    advance: (ms: number) => (clock += ms),
  }
}

describe('verified tokens of an isolate', () => {
  it('reads a token once and serves it from memory while it is young', async () => {
    const t = setup()
    expect(await t.get()).toBe('active')
    t.advance(REFRESH - 1)
    expect(await t.get()).toBe('active')
    expect(t.db.reads).toBe(1)
    expect(t.background).toHaveLength(0)
  })

  it('answers from memory while its background read waits on a busy database', async () => {
    const t = setup()
    await t.get()
    t.db.hang = true
    t.advance(REFRESH)
    expect(await t.get()).toBe('active')
    t.advance(MAX_AGE - REFRESH - 1)
    expect(await t.get()).toBe('active')
    expect(t.db.reads).toBe(2)
    expect(t.background).toHaveLength(1)
  })

  it('refuses a revoked token once the background read returns', async () => {
    const t = setup()
    await t.get()
    t.db.row = null
    t.advance(REFRESH)
    expect(await t.get()).toBe('active')
    await Promise.all(t.background)
    expect(await t.get()).toBeNull()
  })

  it('refuses a revoked token at the maximum age even when no read came back', async () => {
    const t = setup()
    await t.get()
    t.db.row = null
    t.db.hang = true
    t.advance(REFRESH)
    expect(await t.get()).toBe('active')
    t.advance(MAX_AGE - REFRESH)
    t.db.hang = false
    expect(await t.get()).toBeNull()
  })

  it('counts the maximum age from when the read started, not when it returned', async () => {
    const t = setup()
    let release: (v: string) => void = () => {}
    const slow = () => new Promise<string | null>((resolve) => (release = resolve))
    const pending = t.cache.get('hash', slow, () => {})
    t.advance(MAX_AGE)
    release('active')
    expect(await pending).toBe('active')
    expect(await t.get()).toBe('active')
    expect(t.db.reads).toBe(1)
  })

  it('never keeps a token the database does not have', async () => {
    const t = setup()
    t.db.row = null
    expect(await t.get()).toBeNull()
    t.db.row = 'active'
    expect(await t.get()).toBe('active')
    expect(t.db.reads).toBe(2)
  })

  it('forgets every token at once, and what a read under way would have stored', async () => {
    const t = setup()
    await t.get('a')
    let release: (v: string) => void = () => {}
    const inFlight = t.cache.get(
      'b',
      () => new Promise((resolve) => (release = resolve)),
      () => {}
    )
    t.cache.forgetAll()
    release('active')
    await inFlight
    expect(t.cache.size).toBe(0)
    t.db.row = null
    expect(await t.get('a')).toBeNull()
    expect(await t.get('b')).toBeNull()
  })

  it('keeps at most its number of entries, dropping the least recently used', async () => {
    const t = setup()
    for (const key of ['a', 'b', 'c']) await t.get(key)
    await t.get('a')
    await t.get('d')
    expect(t.cache.size).toBe(3)
    const reads = t.db.reads
    await t.get('a')
    expect(t.db.reads).toBe(reads)
    await t.get('b')
    expect(t.db.reads).toBe(reads + 1)
  })
})
