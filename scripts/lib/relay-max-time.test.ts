/**
 * A relayed transfer that is still streaming `relayMaxSeconds` (DNS_FRONT_RELAY_MAX_SECONDS) after
 * it started is cut off, however its client reads: the request to the API is aborted, the client's
 * connection closed, the cut logged, and the relay's slot is free again. A client that reads just
 * fast enough never to be idle cannot hold a relay slot for ever.
 */
import net from 'node:net'
import { afterAll, beforeAll, expect, it, vi } from 'vitest'
import { query, rcode } from './dns-client.ts'
// @ts-expect-error plain ESM module shared with scripts/dns-front.mjs
import { startDnsFront } from './dns-front.mjs'
import { framed, stubApi, until } from './relay-test-messages.ts'

let api: Awaited<ReturnType<typeof stubApi>>
let base: string
/** Endless answers whose request the front has closed. */
let aborted = 0

beforeAll(async () => {
  // Stand-in API: "trickle" is answered with itself (QR set) every 100 ms for ever; "flood" with
  // 1,000-octet messages for ever, as fast as they are read; any other request with itself once.
  api = await stubApi((_req, body, res) => {
    const name = String(body.subarray(13, 13 + body[12]!))
    body[2]! |= 0x80
    res.writeHead(200, { 'content-type': 'application/octet-stream' })
    if (name === 'trickle') {
      const tick = setInterval(() => res.write(framed(body)), 100)
      res.on('close', () => clearInterval(tick))
    } else if (name === 'flood') {
      const msg = Buffer.alloc(1000)
      body.copy(msg)
      const pump = () => {
        while (!res.destroyed && res.write(framed(msg)));
        if (!res.destroyed) res.once('drain', pump)
      }
      pump()
    } else return void res.end(framed(body))
    res.on('close', () => aborted++)
  })
  base = api.base
})
afterAll(() => api?.close())

/** Reads whole messages from `socket` into `into` as they come. */
function collect(socket: net.Socket, into: Buffer[]): void {
  let got = Buffer.alloc(0)
  socket.on('data', (c: Buffer) => {
    got = Buffer.concat([got, c])
    while (got.length >= 2 && got.length >= 2 + got.readUInt16BE(0)) {
      into.push(got.subarray(2, 2 + got.readUInt16BE(0)))
      got = got.subarray(2 + got.readUInt16BE(0))
    }
  })
}

/**
 * Relays an endless transfer of `name` with the cap at 1 s and one relay per client network, its
 * client reading (`read`) or not; checks it is cut off and that the network's next transfer is
 * relayed.
 */
async function cutOff(name: string, read: boolean): Promise<void> {
  const warn = vi.spyOn(console, 'warn').mockImplementation(() => {})
  const front = await startDnsFront({
    target: base,
    transfer: { api: base, token: 't' },
    relayMaxSeconds: 1,
    relayLimits: { clientConcurrency: 1 },
    tcpIdleMs: 60_000, // the idle time does not end it
  })
  const abortedBefore = aborted
  const endless = net.connect({ port: front.port, host: '127.0.0.1' })
  endless.on('error', () => {})
  const messages: Buffer[] = []
  if (read) collect(endless, messages)
  else endless.pause()
  // A non-reader learns of the close only by writing: a byte every 300 ms (a next query that never
  // completes), as relay-slow-reader.test.ts does.
  const trickle = read
    ? undefined
    : setInterval(() => endless.destroyed || endless.write(Buffer.from([0x00])), 300)
  const started = Date.now()
  const closed = new Promise<boolean>((resolve) => {
    const timer = setTimeout(() => resolve(false), 10_000)
    endless.on('close', () => {
      clearTimeout(timer)
      resolve(true)
    })
  })
  try {
    endless.write(framed(query(name, 'AXFR')))
    expect(await closed, 'the front closed the connection within 10 s').toBe(true)
    expect(Date.now() - started).toBeGreaterThanOrEqual(900)
    if (read) expect(messages.length).toBeGreaterThan(0) // it was streaming when cut off
    await until(() => aborted > abortedBefore, 5000) // the request to the API was aborted
    const logged = warn.mock.calls.map((c) => String(c[0]))
    expect(logged.filter((l) => /DNS_FRONT_RELAY_MAX_SECONDS/.test(l))).toHaveLength(1)
    // The network's one slot is free again: its next transfer is relayed.
    const next = net.connect({ port: front.port, host: '127.0.0.1' })
    next.on('error', () => {})
    const answers: Buffer[] = []
    collect(next, answers)
    next.write(framed(query('next', 'AXFR')))
    try {
      await until(() => answers.length > 0 || next.destroyed, 5000)
    } finally {
      next.destroy()
    }
    expect(answers).toHaveLength(1)
    expect(rcode(answers[0]!)).toBe(0) // the stand-in's answer, not the front's SERVFAIL
  } finally {
    clearInterval(trickle)
    endless.destroy()
    front.close()
    warn.mockRestore()
  }
}

it('a relay still streaming to a reading client after relayMaxSeconds is cut off, its slot freed', async () => {
  await cutOff('trickle', true)
}, 30_000)

it('a relay waiting for its client to read when relayMaxSeconds pass is cut off, its slot freed', async () => {
  await cutOff('flood', false)
}, 30_000)
