import { exports } from 'cloudflare:workers'
import { expect, it } from 'vitest'
it('responds', async () => {
  const res = await exports.default.fetch('http://x/client/v4/zones')
  expect(await res.json()).toEqual({ ok: true, path: '/client/v4/zones' })
})
