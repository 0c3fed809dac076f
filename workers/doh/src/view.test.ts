import { describe, expect, it } from 'vitest'
import { PRODUCTION_BUCKET_MAX_AGE_MS, PRODUCTION_REVALIDATE_MS, type DohEnv } from './env.ts'
import type { FeedPoller, PollReply } from '@edgedns/zone-feed'
import { feedPoller, locationHint, viewOptions, type FeedObjects } from './view.ts'

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

describe('the feed poller', () => {
  const reply: PollReply = {
    epoch: 'e',
    seq: 1,
    entries: [],
    resync: false,
    index: null,
    complete: true,
  }
  /** Objects that record which one was polled; the named ones fail. */
  const objects = (failing: string[], calls: string[]): FeedObjects => {
    const poller = (name: string): FeedPoller => ({
      poll: () => {
        calls.push(name)
        return failing.includes(name) ? Promise.reject(new Error('down')) : Promise.resolve(reply)
      },
    })
    return {
      primary: () => poller('primary'),
      replica: (place, k) => poller(`replica:${place}:${k}`),
    }
  }
  const request = { cursor: null, epoch: null }

  it('polls replica k of the isolate region, then the next replica, then the primary, each only on failure', async () => {
    const calls: string[] = []
    await feedPoller(objects([], calls), 2, 1, () => 'weur').poll(request)
    expect(calls).toEqual(['replica:weur:1'])
    calls.length = 0
    await feedPoller(objects(['replica:weur:1'], calls), 2, 1, () => 'weur').poll(request)
    expect(calls).toEqual(['replica:weur:1', 'replica:weur:0'])
    calls.length = 0
    await feedPoller(objects(['replica:weur:1', 'replica:weur:0'], calls), 2, 1, () => 'weur').poll(
      request
    )
    expect(calls).toEqual(['replica:weur:1', 'replica:weur:0', 'primary'])
  })

  it('with no replicas ("0") polls the primary', async () => {
    const calls: string[] = []
    await feedPoller(objects([], calls), 0, 0, () => 'weur').poll(request)
    expect(calls).toEqual(['primary'])
  })

  it('places replicas by the request continent', () => {
    expect(locationHint({ continent: 'EU', longitude: '2.35' })).toBe('weur')
    expect(locationHint({ continent: 'EU', longitude: '37.6' })).toBe('eeur')
    expect(locationHint({ continent: 'NA', longitude: '-122.4' })).toBe('wnam')
    expect(locationHint({ continent: 'NA', longitude: '-74' })).toBe('enam')
    expect(locationHint({ continent: 'AS' })).toBe('apac')
    expect(locationHint(undefined)).toBeUndefined()
  })
})
