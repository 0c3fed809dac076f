import { describe, expect, it } from 'vitest'
import { frameTcp, TcpMessageSplitter } from './tcp-framing.ts'

describe('DNS over TCP framing', () => {
  it('prefixes the length, and splits messages back out of chunks of any size', () => {
    const a = new Uint8Array([1, 2, 3])
    const b = new Uint8Array([4])
    const framed = new Uint8Array([...frameTcp(a), ...frameTcp(b)])
    expect([...framed]).toEqual([0, 3, 1, 2, 3, 0, 1, 4])
    const splitter = new TcpMessageSplitter()
    const out = [...framed].flatMap((byte) => splitter.push(new Uint8Array([byte])))
    expect(out).toEqual([a, b])
    expect(splitter.pending).toBe(false)
    expect(new TcpMessageSplitter().push(framed)).toEqual([a, b])
    const partial = new TcpMessageSplitter()
    expect(partial.push(framed.slice(0, 3))).toEqual([])
    expect(partial.pending).toBe(true)
  })

  it('refuses to frame a message longer than two octets can say', () => {
    expect(() => frameTcp(new Uint8Array(0x10000))).toThrow(RangeError)
  })
})
