/**
 * PowerDNS Authoritative (`pdns_server`, SQLite backend) as a secondary of one of our zones, beside
 * the BIND, Knot and NSD tests (tools/secondary-of-ours.ts): the first transfer through the DNS
 * front, then a change announced by NOTIFY (TSIG-signed) and pulled by IXFR. PowerDNS serves
 * DNSKEY records only from its own key store, so the apex DNSKEY of the zone of every type is left
 * out of the comparison.
 */
import { execFileSync } from 'node:child_process'
import { writeFileSync } from 'node:fs'
import path from 'node:path'
import { expect } from 'vitest'
import { PDNSUTIL, PDNS_SERVER, createPdnsDatabase, hasPdns } from './tools/pdns.ts'
import { waitFor } from './tools/processes.ts'
import { describeSecondaryOfOurs } from './tools/secondary-of-ours.ts'

describeSecondaryOfOurs({
  title: 'PowerDNS',
  binary: hasPdns ? PDNS_SERVER : undefined,
  tag: 'pdns',
  secret: 'cGRucy1zZWNyZXQtZm9yLXRoZS1heGZyLW91dC10ZXN0',
  notServed: ['DNSKEY'],
  configure({ dir, zone, port, frontPort, keyName, secret }) {
    const database = path.join(dir, 'pdns.sqlite3')
    createPdnsDatabase(database)
    writeFileSync(
      path.join(dir, 'pdns.conf'),
      `launch=gsqlite3
gsqlite3-database=${database}
local-address=127.0.0.1
local-port=${port}
secondary=yes
socket-dir=${dir}
allow-notify-from=127.0.0.0/8
allow-axfr-ips=127.0.0.0/8
disable-syslog=yes
loglevel=6
setuid=
setgid=
xfr-cycle-interval=5
`
    )
    const pdnsutil = (...args: string[]) =>
      execFileSync(PDNSUTIL!, [`--config-dir=${dir}`, ...args], { stdio: 'ignore' })
    pdnsutil('import-tsig-key', keyName, 'hmac-sha256', secret)
    pdnsutil('create-secondary-zone', zone, `127.0.0.1:${frontPort}`)
    pdnsutil('set-meta', zone, 'AXFR-MASTER-TSIG', keyName)
    pdnsutil('set-meta', zone, 'IXFR', '1')
    return [`--config-dir=${dir}`, '--daemon=no', '--guardian=no']
  },
  async followedChange({ since }) {
    const ixfr = /IXFR-in zone: .* got 1 delta, zone committed/
    expect(await waitFor(() => ixfr.test(since()), 10_000), since()).toBe(true)
    expect(since()).toMatch(/Received secure NOTIFY for .* with TSIG key/)
  },
})
