/**
 * @module The DNS front's share of TCP connections per client network (IPv4 /24, IPv6 /56): at
 * most `perNetwork` open at once, so one host (or one network) cannot hold every connection the
 * front allows (`DNS_FRONT_TCP_CLIENTS`) and shut out every secondary and every resolver retrying
 * over TCP. TCP sources cannot be forged, so the count is of real connections; an entry lives only
 * while its network has one open.
 */
import { clientNetwork } from './front-rrl.mjs'

/**
 * `admit(socket)` is true when the socket's network has fewer than `perNetwork` connections open
 * (the socket is then counted until it closes); false otherwise, after `onRefuse(address)`.
 */
export function tcpClientShares({ perNetwork, onRefuse = () => {} }) {
  const open = new Map()
  return {
    admit(socket) {
      const address = socket.remoteAddress ?? ''
      const network = clientNetwork(address)
      const count = open.get(network) ?? 0
      if (count >= perNetwork) {
        onRefuse(address)
        return false
      }
      open.set(network, count + 1)
      socket.once('close', () => {
        const left = (open.get(network) ?? 1) - 1
        if (left > 0) open.set(network, left)
        else open.delete(network)
      })
      return true
    },
    /** Networks with a connection open now. */
    get networks() {
      return open.size
    },
  }
}
