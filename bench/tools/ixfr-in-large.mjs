#!/usr/bin/env node
/**
 * @module One large IXFR into our secondary zone (not part of `pnpm bench`): a BIND primary of a
 * dynamic zone of `size` records, sending no NOTIFY of its own; one of our secondary zones pulls
 * it. Then `adds` records are added on the primary by `nsupdate`, 1,000 a message (so one serial
 * each), and one signed NOTIFY (sent here, through the DNS front) makes our zone ask IXFR once:
 * BIND answers with every serial's difference, which we commit as one change, logged record by
 * record up to 50,000 records. Timed from the NOTIFY until DoH answers the last record added;
 * prints the API's commit line (records, pull and commit milliseconds, how it was applied).
 *
 *   node bench/tools/ixfr-in-large.mjs [size=100000] [adds=50000]
 */
import { execFile } from 'node:child_process'
import dgram from 'node:dgram'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { promisify } from 'node:util'
import { notifyMessage, parseTsigKey, signMessage } from '../../packages/zone-transfer/src/index.ts'
import { aRecord, apiClient } from '../lib/api.mjs'
import { pollDoh } from '../lib/propagation.mjs'
import { XFR_KEY } from '../lib/named-xfr.mjs'
import { secondaryOfBind } from '../lib/secondary-of-bind.mjs'
import { startBenchStack } from '../lib/stack.mjs'
import { helpIfAsked } from '../lib/tool-help.mjs'
import { writeZoneFile } from '../peers/zonefile.mjs'
import { sleep } from '../peers/proc.mjs'

helpIfAsked(import.meta.url)

const size = Number(process.argv[2] ?? 100_000)
const adds = Number(process.argv[3] ?? 50_000)
const PER_UPDATE = 1000
const ZONE = 'ixfr-large.bench.example'
const run = promisify(execFile)
const log = (m) => console.log(`[ixfr-large] ${m}`)

/** Adds records `from` … `to - 1` (`aRecord('add', i)`) to the primary's zone in one update. */
async function addOnPrimary(port, from, to) {
  const lines = [`server 127.0.0.1 ${port}`, `zone ${ZONE}`]
  for (let i = from; i < to; i++) {
    const r = aRecord('add', i)
    lines.push(`update add ${r.name}.${ZONE} 300 IN A ${r.content}`)
  }
  lines.push('send', '')
  const key = `hmac-sha256:${XFR_KEY.name}:${XFR_KEY.secret}`
  await run('sh', ['-c', `printf '%s' "$0" | nsupdate -y ${key}`, lines.join('\n')], {
    maxBuffer: 1 << 24,
  })
}

/** A NOTIFY of the zone at `serial`, signed with the transfer key, to the front; its reply. */
async function notify(port, serial) {
  const soa = {
    name: ZONE,
    type: 6,
    ttl: 3600,
    rdata: `ns1.${ZONE}. hostmaster.${ZONE}. ${serial} 3600 600 86400 300`,
  }
  const key = parseTsigKey(`hmac-sha256:${XFR_KEY.name}:${XFR_KEY.secret}`)
  const { message } = await signMessage(notifyMessage(4242, soa), key, {
    time: Math.floor(Date.now() / 1000),
  })
  const socket = dgram.createSocket('udp4')
  try {
    const reply = new Promise((resolve) => socket.once('message', resolve))
    socket.send(message, port, '127.0.0.1')
    return await Promise.race([reply, sleep(5000).then(() => null)])
  } finally {
    socket.close()
  }
}

const dir = mkdtempSync(path.join(tmpdir(), 'edgedns-ixfr-large-'))
const committed = []
const stack = await startBenchStack({
  onRuntimeLog: ({ message }) => {
    const at = message.indexOf('secondary zone transfer committed')
    if (at >= 0) committed.push(JSON.parse(message.slice(message.indexOf('{', at))))
  },
})
const stopping = [{ stop: () => stack.close() }]
try {
  const api = apiClient(stack.url, stack.token)
  const file = path.join(dir, `${ZONE}.zone`)
  await writeZoneFile(file, ZONE, size)
  const base = aRecord('base', size - 1)
  // No NOTIFY target: the primary tells nobody of its changes; the one NOTIFY is ours.
  const { front, primary, loadMs } = await secondaryOfBind({
    api,
    stack,
    dir,
    zone: ZONE,
    file,
    lastName: `${base.name}.${ZONE}`,
    primary: {},
    stopping,
  })
  log(`loaded ${size} records in ${(loadMs / 1000).toFixed(1)} s`)
  // The load's full build ends before the IXFR is timed.
  await sleep(Number(process.env.SETTLE_MS ?? 20_000))

  const tUpdates = performance.now()
  let serial = 1
  for (let i = 0; i < adds; i += PER_UPDATE) {
    await addOnPrimary(primary.port, i, Math.min(adds, i + PER_UPDATE))
    serial++
  }
  log(
    `${adds} records added on the primary in ${serial - 1} updates, ${((performance.now() - tUpdates) / 1000).toFixed(1)} s`
  )
  const last = aRecord('add', adds - 1)
  const tNotify = performance.now()
  const reply = await notify(front.port, serial)
  if (!reply) throw new Error('the NOTIFY had no answer')
  const seen = await pollDoh(
    stack.dohUrl,
    `${last.name}.${ZONE}`,
    (a) => a.data.includes(last.content),
    { everyMs: 20, timeoutMs: 600_000 }
  )
  log(
    `NOTIFY → the last added record answered over DoH: ${((seen.atMs - tNotify) / 1000).toFixed(2)} s`
  )
  for (const c of committed.slice(1))
    log(
      `commit: ${c.kind}/${c.applied}, ${c.records} records, pull ${c.pullMs} ms, commit ${c.commitMs} ms`
    )
} finally {
  for (const p of stopping.reverse()) await p.stop().catch(() => {})
  rmSync(dir, { recursive: true, force: true })
}
