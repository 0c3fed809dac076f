/**
 * Knot DNS (`knotd`) as a secondary of one of our zones, beside the BIND test
 * (tools/secondary-of-ours.ts): the first transfer through the DNS front, then a change announced
 * by NOTIFY and pulled by IXFR.
 */
import { existsSync, mkdirSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { expect } from 'vitest'
import { waitFor } from './tools/processes.ts'
import { describeSecondaryOfOurs } from './tools/secondary-of-ours.ts'

describeSecondaryOfOurs({
  title: 'Knot DNS',
  binary: ['/usr/sbin/knotd', '/usr/bin/knotd'].find(existsSync),
  tag: 'knot',
  secret: 'a25vdC1zZWNyZXQtZm9yLXRoZS1heGZyLXRlc3QtMzI=',
  configure({ dir, zone, port, frontPort, keyName, secret }) {
    const conf = path.join(dir, 'knot.conf')
    // knotd keeps a transfer's changes in its journal, under the database storage, which must exist.
    mkdirSync(path.join(dir, 'db'))
    writeFileSync(
      conf,
      `server:
  listen: 127.0.0.1@${port}
  rundir: "${dir}"
log:
  - target: stderr
    any: info
database:
  storage: "${dir}/db"
key:
  - id: ${keyName}
    algorithm: hmac-sha256
    secret: ${secret}
remote:
  - id: primary
    address: 127.0.0.1@${frontPort}
    key: ${keyName}
acl:
  - id: from-primary
    address: 127.0.0.1
    key: ${keyName}
    action: notify
  - id: local
    address: 127.0.0.1
    action: transfer
zone:
  - domain: ${zone}
    storage: "${dir}"
    master: primary
    acl: [from-primary, local]
`
    )
    return ['-c', conf]
  },
  async followedChange({ since }) {
    expect(await waitFor(() => /IXFR, incoming.*finished/.test(since()), 10_000), since()).toBe(
      true
    )
    expect(since()).toMatch(/notify, incoming/)
    // Applied as an IXFR, not stored in vain and pulled again whole.
    expect(since()).not.toMatch(/failed|AXFR, incoming/)
  },
})
