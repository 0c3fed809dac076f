/**
 * @module NOTIFY for the local DNS front: a NOTIFY (RFC 1996) that reaches the front over UDP or
 * TCP goes to the API (`POST /client/v4/dns_notify`, with the sender's address) and the API's
 * NOTIFY response goes back to the sender. The API decides whether to accept it (a secondary
 * zone's primary, TSIG-checked) and, when it does, the zone checks its primary at once.
 */
import { isNotify } from '../../packages/zone-transfer/src/index.ts'
import { RELAY_TIMEOUT_MS } from './transfer-relay.mjs'

/**
 * `relay(message, clientIp)` → a promise of the answer (a Buffer, or null: send nothing), or null
 * when `message` is not a NOTIFY (the front answers it as usual). Without `token`, never relays.
 * The promise rejects when the API has not answered within `timeoutMs` (the primary sends the
 * NOTIFY again).
 */
export function notifyRelay({ target, token, timeoutMs = RELAY_TIMEOUT_MS }) {
  if (!token) return () => null
  return (message, clientIp) => {
    if (!isNotify(message)) return null
    return fetch(`${target}/client/v4/dns_notify`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({
        client_ip: clientIp,
        message: Buffer.from(message).toString('base64'),
      }),
      signal: AbortSignal.timeout(timeoutMs),
    }).then(async (res) => {
      const body = await res.json()
      if (!body.success) throw new Error(`dns_notify: ${JSON.stringify(body.errors)}`)
      return body.result.message ? Buffer.from(body.result.message, 'base64') : null
    })
  }
}
