/**
 * @module Test helpers of the front's relay tests: a stand-in API on loopback, the messages a
 * secondary or a primary sends that the front relays (a signed SOA check, a NOTIFY), and waiting
 * for a condition.
 */
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import { signMessage, type TsigKey } from '../../packages/zone-transfer/src/index.ts'
import { query } from './dns-client.ts'

/** A secondary's SOA check of `name`, signed with `key` now. */
export async function signedSoaCheck(name: string, key: TsigKey): Promise<Buffer> {
  const { message } = await signMessage(query(name, 'SOA'), key, {
    time: Math.floor(Date.now() / 1000),
  })
  return Buffer.from(message)
}

/** A primary's NOTIFY for `name` (unsigned). */
export function notifyOf(name: string): Buffer {
  const notify = query(name, 'SOA')
  notify[2] = (notify[2]! & 0x87) | (4 << 3) // opcode NOTIFY
  return notify
}

/** Resolves once `check()` holds, polling every 10 ms; throws after `ms`. */
export async function until(check: () => boolean, ms: number): Promise<void> {
  const started = Date.now()
  while (!check()) {
    if (Date.now() - started > ms) throw new Error('timed out waiting')
    await new Promise((r) => setTimeout(r, 10))
  }
}

/**
 * A stand-in API on 127.0.0.1: each request's body is read whole, then `answer(req, body, res)`
 * answers it. `close()` ends its connections and stops it.
 */
export async function stubApi(
  answer: (req: http.IncomingMessage, body: Buffer, res: http.ServerResponse) => void
): Promise<{ base: string; close(): void }> {
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = []
    req.on('data', (c: Buffer) => chunks.push(c))
    req.on('end', () => answer(req, Buffer.concat(chunks), res))
  })
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r))
  return {
    base: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => {
      server.closeAllConnections()
      server.close()
    },
  }
}

/** `message` with its two-octet TCP length prefix. */
export function framed(message: Uint8Array): Buffer {
  const prefix = Buffer.alloc(2)
  prefix.writeUInt16BE(message.length)
  return Buffer.concat([prefix, message])
}
