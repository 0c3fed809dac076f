/**
 * A relayed answer's byte stream: whole framed messages in order, at least 60 KB a part (the last
 * part shorter), and whether the answer completed.
 */
import { describe, expect, it } from 'vitest'
import { streamOf } from './answer-stream.ts'

/** A message of `size` octets whose fourth octet (RCODE) is `rcode` and whose bytes say `tag`. */
function message(size: number, tag: number, rcode = 0): Uint8Array {
  const m = new Uint8Array(size).fill(tag)
  m[3] = rcode
  return m
}

async function* of(messages: Uint8Array[]): AsyncGenerator<Uint8Array> {
  yield* messages
}

async function readAll(body: ReadableStream<Uint8Array>): Promise<Uint8Array[]> {
  const parts: Uint8Array[] = []
  for await (const part of body) parts.push(part)
  return parts
}

describe('a relayed answer as a byte stream', () => {
  it('sends whole framed messages in order, 60 KB or more a part but the last', async () => {
    const messages = Array.from({ length: 20 }, (_, i) => message(20_000 + i, i + 1))
    const { body, completed } = streamOf(of(messages))
    const parts = await readAll(body)
    expect(parts.slice(0, -1).every((p) => p.length >= 60_000)).toBe(true)
    const bytes = Buffer.concat(parts)
    let at = 0
    for (const m of messages) {
      expect(bytes.readUInt16BE(at)).toBe(m.length)
      expect(bytes.subarray(at + 2, at + 2 + m.length)).toEqual(Buffer.from(m))
      at += 2 + m.length
    }
    expect(at).toBe(bytes.length)
    expect(parts.length).toBe(7)
    expect(await completed).toBe(true)
  })

  it('sends a one-message answer as one part; one with an error RCODE did not complete', async () => {
    const { body, completed } = streamOf(of([message(40, 1, 5)]))
    expect((await readAll(body)).map((p) => p.length)).toEqual([42])
    expect(await completed).toBe(false)
  })

  it('does not count the single SOA of an IXFR that is current as a completed transfer', async () => {
    const single = message(60, 0)
    single[7] = 1 // ANCOUNT 1
    const completedAs = async (m: Uint8Array, ixfr: boolean) => {
      const { body, completed } = streamOf(of([m]), { ixfr })
      await readAll(body)
      return completed
    }
    expect(await completedAs(single, true)).toBe(false)
    // Any other answer of one record (a SOA check) completes.
    expect(await completedAs(single, false)).toBe(true)
    const transfer = message(60, 0)
    transfer[7] = 3 // SOA, NS, SOA: the smallest AXFR, or an IXFR in the AXFR form
    expect(await completedAs(transfer, true)).toBe(true)
  })

  it('fails the stream, and does not complete, when the messages fail midway', async () => {
    async function* failing(): AsyncGenerator<Uint8Array> {
      yield message(30_000, 1)
      throw new Error('zone changed during the transfer')
    }
    const { body, completed } = streamOf(failing())
    await expect(readAll(body)).rejects.toThrow('zone changed')
    expect(await completed).toBe(false)
  })

  it('completes only once the last part has been read', async () => {
    const { body, completed } = streamOf(of([message(100, 1), message(200, 2)]))
    let settled = false
    void completed.then(() => (settled = true))
    await new Promise((r) => setTimeout(r, 20))
    expect(settled).toBe(false)
    expect(await readAll(body)).toHaveLength(1)
    expect(await completed).toBe(true)
  })

  it('does not complete, and returns the messages, when the reader cancels', async () => {
    let returned = false
    async function* endless(): AsyncGenerator<Uint8Array> {
      try {
        for (let i = 0; ; i++) yield message(30_000, i % 200)
      } finally {
        returned = true
      }
    }
    const { body, completed } = streamOf(endless())
    const reader = body.getReader()
    await reader.read()
    await reader.cancel()
    expect(await completed).toBe(false)
    expect(returned).toBe(true)
  })
})
