/**
 * @module Sends the builder notifications a handler queued (`notifyBuilder` in commit/zone-change.ts)
 * once the response has been sent. A lost notification is healed by the builder's alarm and the
 * cron sweep.
 *
 * Handlers queue the notifications of large changes; `notifyAfterResponse` sends them when the
 * response body has been handed over in full. Where the builder shares the runtime's thread (workerd locally) its pass
 * would otherwise run before the response is sent, and a client would wait for the build; on
 * Cloudflare the builder runs in its own Durable Object and the wait is the body's transfer time.
 * Locally `NOTIFY_AFTER_RESPONSE_DELAY_MS` adds a pause: the body has left workerd, but the local
 * proxies (wrangler dev's, `pnpm dev`'s front) still relay it on the same two cores.
 */
import type { MiddlewareHandler } from 'hono'
import type { AppEnv } from '../http/app-env.ts'

type AfterResponse = (() => Promise<unknown>)[]

/** Runs the queued notifications after the response body has gone out (or the client left). */
export const notifyAfterResponse: MiddlewareHandler<AppEnv> = async (c, next) => {
  const queue: AfterResponse = []
  c.set('afterResponse', queue)
  await next()
  if (queue.length === 0) return
  const run = () => Promise.all(queue.map((send) => send()))
  const body = c.res.body
  if (!body) {
    c.executionCtx.waitUntil(run())
    return
  }
  let sent!: () => void
  const done = new Promise<void>((resolve) => (sent = resolve))
  // Pull-driven with no buffer: the runtime asks for the end of the body only after it has
  // written everything before it, so `sent` fires once the response is out, not once it is queued.
  const reader = body.getReader()
  const relay = new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        const { done: end, value } = await reader.read()
        if (end) {
          controller.close()
          sent()
        } else controller.enqueue(value)
      },
      cancel(reason) {
        sent()
        return reader.cancel(reason)
      },
    },
    { highWaterMark: 0 }
  )
  c.res = new Response(relay, c.res)
  const delay = Number(c.env.NOTIFY_AFTER_RESPONSE_DELAY_MS) || 0
  const sentAndSettled =
    delay > 0 ? done.then(() => new Promise<void>((resolve) => setTimeout(resolve, delay))) : done
  c.executionCtx.waitUntil(sentAndSettled.then(run))
}
