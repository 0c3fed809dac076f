/**
 * @module Test helpers of the front's relay tests: the messages a secondary or a primary sends
 * that the front relays (a signed SOA check, a NOTIFY), and waiting for a condition.
 */
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
