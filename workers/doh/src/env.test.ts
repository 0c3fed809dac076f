import { env } from 'cloudflare:workers'
import { describe, expect, it } from 'vitest'
import { strictDohEnv } from './env.ts'

describe('KV_MODEL=production in the DoH env', () => {
  it('keeps one location per isolate: a second request reads the same edge cache', async () => {
    const key = `model-env-doh`
    await env.ZONES_KV.put(key, 'v1')
    const dohEnv = { ZONES_KV: env.ZONES_KV, KV_MODEL: 'production' }
    expect(await strictDohEnv(dohEnv).ZONES_KV.get(key, 'text')).toBe('v1')
    await env.ZONES_KV.put(key, 'v2')
    expect(await strictDohEnv({ ...dohEnv }).ZONES_KV.get(key, 'text')).toBe('v1')
  })
})
