import { inject } from 'vitest'

/**
 * The Records API of the stack the e2e global setup started, as its own token: the Cloudflare v4
 * envelope of a successful call; a failed call throws, naming the request and the API's errors.
 */
export async function stackApi(method: string, path: string, body?: unknown): Promise<any> {
  const res = await fetch(`${inject('stackBase')}/client/v4${path}`, {
    method,
    headers: {
      authorization: `Bearer ${inject('stackToken')}`,
      'content-type': 'application/json',
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  })
  const json = (await res.json()) as any
  if (!json.success) throw new Error(`${method} ${path}: ${JSON.stringify(json.errors)}`)
  return json
}
