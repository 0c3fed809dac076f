/**
 * @module What the DNS front relays to the API over UDP: a NOTIFY (notify-relay.mjs), and a
 * transfer request or TSIG-signed query (transfer-relay.mjs, answered with the relay's first
 * message). A UDP sender's address is not proven, so each such message must find room under the
 * caps on UDP relays in flight (`limits`, a relayLimiter without a rate: per client network and in
 * total) and then pass its network's share of upstream requests (`misses`, as a cache miss does).
 * Past either nothing is sent, as a loaded server does, and the sender asks again as after a lost
 * datagram. Each refusal is told to `refused(address, setting)` (front-refusals.mjs).
 */
import { splitTsig } from '../../packages/zone-transfer/src/index.ts'
import { firstMessage } from './transfer-relay.mjs'
import { asksTransfer, formErr, overTcp, truncated, udpLimit } from './front-wire.mjs'

/**
 * The front's own answer to an unsigned transfer query over UDP that `relays(query)` would send to
 * the API, so that a forged datagram costs the API no read before its ACL refuses it: an IXFR gets
 * TC set and its question echoed, so that the client asks again over TCP, where its address is
 * proven (BIND's secondaries ask IXFR over TCP anyway); an AXFR, which is never answered over UDP,
 * gets FORMERR, as the API would answer it. Null for any other message; a signed one is relayed,
 * as its answer must be signed. The cheap checks come first: every datagram passes here.
 */
export function unsignedTransfer(query, relays) {
  if (query.length < 12 || (query[2] & 0xf8) !== 0) return null
  const type = asksTransfer(query)
  if (type === null || !relays(query)) return null
  try {
    if (splitTsig(new Uint8Array(query)).tsig !== null) return null
  } catch {
    return null
  }
  return type === 251 ? overTcp(query) : formErr(query)
}

/**
 * `relay(query, address)` → null when `query` (a Buffer) is not relayed (the front answers it as
 * usual), else a promise of the answer to send (null: send nothing; never rejects). An answer
 * longer than the sender takes over UDP goes out truncated. A relay is in flight from
 * the moment the front asks the API until the API's first message (or its NOTIFY answer) is in,
 * or the relay fails or times out (`DNS_FRONT_RELAY_TIMEOUT_MS`).
 */
export function udpRelayer({ notifies, relayNotify, relayer, limits, misses, refused }) {
  const ask = (query, message, address) => {
    if (notifies(message)) return relayNotify(message, address)
    return relayer
      .relay(message, address, { udp: true })
      .then(firstMessage)
      .then((reply) => (reply.length > udpLimit(query) ? truncated(reply, query) : reply))
  }
  return (query, address) => {
    const message = new Uint8Array(query)
    if (!notifies(message) && !relayer.relays(message)) return null
    const done = limits.admit(address)
    if (!done) return Promise.resolve(null)
    if (!misses.allow(address)) {
      done()
      refused(address, 'DNS_FRONT_UPSTREAM_CLIENT_RATE')
      return Promise.resolve(null)
    }
    // No answer when the relay fails: the client retries or gives up, as after a lost datagram.
    return ask(query, message, address)
      .catch(() => null)
      .finally(done)
  }
}
