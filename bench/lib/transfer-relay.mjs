/**
 * @module TSIG-signed transfer requests sent straight to the API's transfer relay (`POST
 * /client/v4/dns_transfer`), as the DNS front sends a secondary's query: signed with the project's
 * own transfer codec and posted by the front's relay client, from a loopback client address.
 */
import { transferRelay } from '../../scripts/lib/transfer-relay.mjs'
import { parseTsigKey, transferRequest } from '../../packages/zone-transfer/src/index.ts'

/**
 * A sender of signed requests to `stack`'s relay with TSIG `key` ({ name, secret }, hmac-sha256):
 * `send({ zone, kind, id })` signs the query (kind `SOA`, `AXFR`, …) and posts it; it resolves with
 * `sentAt` (performance.now() once signed, just before the post) and the answer's byte chunks
 * (`body`, an async iterable of DNS messages framed as on TCP), and rejects when the relay answers other than HTTP 200.
 */
export function relaySender(stack, { name, secret }) {
  const key = parseTsigKey(`hmac-sha256:${name}:${secret}`)
  const relay = transferRelay({ api: stack.url, token: stack.token })
  return async ({ zone, kind, id = 1 }) => {
    const { message } = await transferRequest({
      zone,
      kind,
      id,
      key,
      now: Math.floor(Date.now() / 1000),
    })
    const sentAt = performance.now()
    return { sentAt, body: await relay(message, '127.0.0.1') }
  }
}
