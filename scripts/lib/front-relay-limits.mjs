/**
 * @module Limits on what the DNS front relays to the API (transfers, TSIG-signed queries, NOTIFY).
 * Each such request costs the API a round of D1 reads even when it is refused, and an allowed
 * transfer of a large zone streams for as long as the client reads. Each client network (IPv4
 * /24, IPv6 /56) is held to a share: at most `clientRate` requests started a second (a token
 * bucket, one second's worth), at most `clientConcurrency` in flight, and at most `concurrency`
 * in flight in total (as BIND's `transfers-out` bounds its outgoing transfers). The front keeps
 * one limiter for TCP, whose client addresses are proven, and one without a rate for UDP (where
 * relays count against the network's share of upstream requests instead). A request past any of
 * them is not relayed: the front answers it SERVFAIL, closes the connection (an IXFR) or sends
 * nothing (a NOTIFY; anything over UDP), and a secondary retries later as after any failed
 * refresh. `0` turns a limit off.
 */
import { clientNetwork, missLimiter } from './front-rrl.mjs'

/**
 * `admit(address)` → a function to call once the relay is over (its answer written, failed or
 * given up; calling it again does nothing), or null when the request is past a limit. A request
 * refused for being past a limit on requests in flight does not spend its network's rate.
 * `onRefuse(address, limit)` is told of each refusal, `limit` naming the option that refused it
 * ('clientRate', 'clientConcurrency' or 'concurrency'). `now()` is the rate's clock in
 * milliseconds (tests pass their own).
 */
export function relayLimiter({
  clientRate = 1000,
  clientConcurrency = 128,
  concurrency = 512,
  maxBuckets = 100_000,
  onRefuse = () => {},
  now,
} = {}) {
  const rate = missLimiter({ rate: clientRate, maxBuckets, now })
  /** Relays in flight per client network; a network leaves the map with its last one. */
  const perNetwork = new Map()
  let total = 0
  const full = (count, limit) => limit > 0 && count >= limit
  /** The limit a request from `address` is past (its rate spent only when it is past no other). */
  const pastLimit = (address, mine) => {
    if (full(total, concurrency)) return 'concurrency'
    if (full(mine, clientConcurrency)) return 'clientConcurrency'
    return rate.allow(address) ? null : 'clientRate'
  }
  return {
    admit(address) {
      const network = clientNetwork(address)
      const mine = perNetwork.get(network) ?? 0
      const limit = pastLimit(address, mine)
      if (limit) {
        onRefuse(address, limit)
        return null
      }
      total += 1
      perNetwork.set(network, mine + 1)
      let ended = false
      return () => {
        if (ended) return
        ended = true
        total -= 1
        const left = perNetwork.get(network) - 1
        if (left > 0) perNetwork.set(network, left)
        else perNetwork.delete(network)
      }
    },
    /** Relays in flight, in total. */
    get inFlight() {
      return total
    },
  }
}
