/**
 * A BIND 9 `named` primary of one zone for the e2e tests that pull from one: the zone file written
 * to `dir`, transfers allowed to one hmac-sha256 TSIG key, named started on a free loopback port
 * and waited for until the zone is loaded.
 */
import type { ChildProcess } from 'node:child_process'
import { writeFileSync } from 'node:fs'
import path from 'node:path'
import { namedConf, spawnNamed } from '../../../scripts/lib/named-conf.mjs'
// @ts-expect-error plain ESM helper shared with `pnpm dev`
import { freePort } from '../../../scripts/lib/stack.mjs'
import { waitFor } from './processes.ts'

export interface NamedPrimary {
  child: ChildProcess
  port: number
}

/** Starts named as the primary of `zone` with `zoneText` (its file), for `key` (name → secret). */
export async function namedPrimary(opts: {
  dir: string
  zone: string
  zoneText: string
  key: { name: string; secret: string }
}): Promise<NamedPrimary> {
  const port = (await freePort()) as number
  const file = path.join(opts.dir, 'zone.db')
  writeFileSync(file, opts.zoneText)
  const { name, secret } = opts.key
  const zones = `zone "${opts.zone}" { type primary; file "${file}"; allow-transfer { key "${name}"; }; };`
  const started = spawnNamed(
    opts.dir,
    namedConf({ dir: opts.dir, port, keys: { [name]: secret }, zones })
  )
  if (!(await waitFor(() => /all zones loaded|running/.test(started.log()), 20_000)))
    throw new Error(`named did not start: ${started.log()}`)
  return { child: started.child, port }
}
