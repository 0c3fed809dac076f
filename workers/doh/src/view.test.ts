import { describe, expect, it } from 'vitest'
import { PRODUCTION_BUCKET_MAX_AGE_MS, PRODUCTION_REVALIDATE_MS, type DohEnv } from './env.ts'
import { viewOptions } from './view.ts'

const env = (vars: Partial<DohEnv>): DohEnv => ({ ZONES_KV: {} as KVNamespace, ...vars })

describe('view settings', () => {
  it('a deployment without settings confirms zones once a second and re-reads buckets after a minute', () => {
    const options = viewOptions(env({}))
    expect(options.revalidateMs).toBe(PRODUCTION_REVALIDATE_MS)
    expect(options.bucketMaxAgeMs).toBe(PRODUCTION_BUCKET_MAX_AGE_MS)
  })

  it('local settings confirm every few milliseconds and keep buckets without an age limit ("0")', () => {
    const options = viewOptions(env({ REVALIDATE_MS: '5', BUCKET_MAX_AGE_MS: '0' }))
    expect(options.revalidateMs).toBe(5)
    expect(options.bucketMaxAgeMs).toBe(Number.POSITIVE_INFINITY)
  })

  it('ignores settings that are not non-negative numbers', () => {
    expect(viewOptions(env({ REVALIDATE_MS: 'soon', CACHE_MB: '-1' }))).toMatchObject({
      revalidateMs: PRODUCTION_REVALIDATE_MS,
      cacheBytes: 64 * 1024 * 1024,
    })
  })
})
