/** @module Knot DNS's configuration as a secondary of one of our zones (tools/secondary-of-ours.ts). */
import { mkdirSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import type { SecondarySetup } from './secondary-of-ours.ts'

/** Writes knot.conf into `dir`; knotd's arguments. */
export function knotConfig({
  dir,
  zone,
  port,
  frontPort,
  keyName,
  secret,
}: SecondarySetup): string[] {
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
}
