/**
 * `pnpm dns-front`: the DNS front on its own, for hosts with port 53 in front of a deployed stack:
 * plain DNS over UDP and TCP answered from its bounded cache or the DoH endpoint, UDP answers
 * rate-limited, zone transfers (AXFR/IXFR over TCP, TSIG-signed queries) relayed to the API's
 * `POST /client/v4/dns_transfer` and NOTIFY to `POST /client/v4/dns_notify`. Settings come from
 * the environment (lib/front-settings.mjs lists them; docs/dns-front.md explains them).
 */
import { startDnsFront } from './lib/dns-front.mjs'
import { frontSettings, usage } from './lib/front-settings.mjs'

const args = process.argv.slice(2)
if (args.includes('--help') || args.includes('-h')) {
  console.log(usage())
  process.exit(0)
}
if (args.length > 0) {
  console.error(`dns-front: unknown argument ${args[0]}; settings come from the environment\n`)
  console.error(usage())
  process.exit(2)
}
let settings
try {
  settings = frontSettings(process.env)
} catch (e) {
  console.error(`dns-front: ${e.message}`)
  process.exit(2)
}
let front
try {
  front = await startDnsFront(settings)
} catch (e) {
  // The address is not this host's, the port is taken, or binding it needs a privilege.
  console.error(
    `dns-front: cannot listen on ${settings.host} port ${settings.port} ` +
      `(DNS_FRONT_HOST, DNS_FRONT_PORT): ${e.code ?? e.message}`
  )
  process.exit(1)
}
console.log(
  `dns-front: listening on UDP and TCP ${settings.host} port ${front.port}` +
    `${settings.transfer ? '; zone transfers and NOTIFY relayed' : ''}`
)
for (const signal of ['SIGINT', 'SIGTERM'])
  process.on(signal, () => (front.close(), process.exit(0)))
