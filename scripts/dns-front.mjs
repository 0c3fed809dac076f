/**
 * `pnpm dns-front`: the DNS front on its own, for a host with port 53 in front of a deployed
 * stack: plain DNS over UDP and TCP passed to the DoH endpoint, zone transfers (AXFR/IXFR over
 * TCP, TSIG-signed queries) relayed to the API's `POST /client/v4/dns_transfer`.
 *
 * Environment:
 *   DNS_FRONT_DOH    base URL of the DoH worker (`<url>/dns-query` answers the queries)
 *   DNS_FRONT_API    base URL of the API worker (default DNS_FRONT_DOH)
 *   DNS_FRONT_TOKEN  an API token with Zone Transfer Relay on the accounts whose zones it serves
 *                    (transfers are refused without it)
 *   DNS_FRONT_HOST   address to listen on (default 0.0.0.0)
 *   DNS_FRONT_PORT   port, UDP and TCP (default 53)
 */
import { startDnsFront } from './lib/dns-front.mjs'

const target = process.env.DNS_FRONT_DOH
if (!target) {
  console.error('dns-front: set DNS_FRONT_DOH to the base URL of the DoH worker')
  process.exit(2)
}
const token = process.env.DNS_FRONT_TOKEN
const front = await startDnsFront({
  target,
  host: process.env.DNS_FRONT_HOST || '0.0.0.0',
  port: Number(process.env.DNS_FRONT_PORT || 53),
  ...(token ? { transfer: { token, api: process.env.DNS_FRONT_API || target } } : {}),
})
console.log(
  `dns-front: listening on UDP and TCP ${front.port}${token ? '; zone transfers relayed' : ''}`
)
for (const signal of ['SIGINT', 'SIGTERM'])
  process.on(signal, () => (front.close(), process.exit(0)))
