/**
 * The deployed workers run with `handle_cross_request_promise_resolution` on (their compatibility
 * date turns it on). The DoH isolate shares reads in flight between requests (a zone's
 * confirmation read, the feed's poll): with the flag a promise settles only in the request that
 * made it, and a request that joins another's read waits a bounded time (`SHARED_WAIT_MS`), so a
 * request that ends early never strands another. Without the flag a promise settled in another
 * request's context fails the waiter's request ("Cannot perform I/O on behalf of a different
 * request"), which is how vitest's workerd pool runs workers: its runner turns the flag off.
 */
import path from 'node:path'
import { Miniflare, convertV4MiniflareOptions } from 'miniflare'
import { unstable_getMiniflareWorkerOptions } from 'wrangler'
import { afterAll, describe, expect, it } from 'vitest'

const ROOT = path.resolve(import.meta.dirname, '../..')

/** The compatibility flags in effect for a worker with `config`'s date and flags. */
async function flagsInEffect(config: string): Promise<Record<string, boolean>> {
  const { workerOptions } = unstable_getMiniflareWorkerOptions(path.join(ROOT, config))
  const probe = {
    name: 'flags',
    modules: true,
    compatibilityDate: workerOptions.compatibilityDate as string,
    compatibilityFlags: workerOptions.compatibilityFlags as string[] | undefined,
    script:
      'export default { fetch: () => new Response(JSON.stringify(Cloudflare.compatibilityFlags)) }',
  }
  const mf = new Miniflare(
    convertV4MiniflareOptions({ workers: [probe] } as Parameters<
      typeof convertV4MiniflareOptions
    >[0])
  )
  opened.push(mf)
  return (await (await mf.dispatchFetch('http://flags/')).json()) as Record<string, boolean>
}

const opened: Miniflare[] = []
afterAll(() => Promise.all(opened.map((mf) => mf.dispose())))

describe('the deployed workers settle a promise only in the request that made it', () => {
  for (const config of ['wrangler.toml', 'workers/doh/wrangler.jsonc'])
    it(`${config}: handle_cross_request_promise_resolution is on`, async () => {
      const flags = await flagsInEffect(config)
      expect(flags).toHaveProperty('handle_cross_request_promise_resolution', true)
    })
})
