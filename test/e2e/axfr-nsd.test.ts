/**
 * NSD as a secondary of one of our zones, beside the BIND and Knot tests
 * (tools/secondary-of-ours.ts): the first transfer through the DNS front, then a change announced
 * by NOTIFY and pulled by IXFR.
 */
import { existsSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { expect } from 'vitest'
import { waitFor } from './tools/processes.ts'
import { describeSecondaryOfOurs } from './tools/secondary-of-ours.ts'

/** The sizes of the updates nsd has applied, in its log's order. */
const updateSizes = (log: string): number[] =>
  [...log.matchAll(/received update to serial \d+ .* of (\d+) bytes/g)].map((m) => Number(m[1]))

describeSecondaryOfOurs({
  title: 'NSD',
  binary: ['/usr/sbin/nsd', '/usr/bin/nsd'].find(existsSync),
  tag: 'nsd',
  secret: 'bnNkLXNlY3JldC1mb3ItdGhlLWF4ZnItb3V0LXRlc3Q=',
  configure({ dir, zone, port, frontPort, keyName, secret }) {
    const conf = path.join(dir, 'nsd.conf')
    writeFileSync(
      conf,
      `server:
  ip-address: 127.0.0.1@${port}
  username: ""
  chroot: ""
  zonesdir: "${dir}"
  pidfile: "${dir}/nsd.pid"
  database: ""
  xfrdfile: "${dir}/xfrd.state"
  xfrdir: "${dir}"
  zonelistfile: "${dir}/zone.list"
  verbosity: 2
remote-control:
  control-enable: no
key:
  name: ${keyName}
  algorithm: hmac-sha256
  secret: "${secret}"
zone:
  name: ${zone}
  zonefile: "${zone}.zone"
  request-xfr: 127.0.0.1@${frontPort} ${keyName}
  allow-notify: 127.0.0.1 ${keyName}
  provide-xfr: 127.0.0.1 NOKEY
`
    )
    return ['-d', '-c', conf]
  },
  async followedChange({ since, all }) {
    expect(since()).toMatch(/notify for .* serial/)
    // nsd logs each update's size, not whether it came by IXFR: one record's IXFR is a small part
    // of the whole zone's first transfer (an AXFR).
    expect(await waitFor(() => updateSizes(since()).length > 0, 10_000), since()).toBe(true)
    const ixfr = updateSizes(since()).at(-1)!
    expect(ixfr * 4, all()).toBeLessThan(updateSizes(all())[0]!)
  },
})
