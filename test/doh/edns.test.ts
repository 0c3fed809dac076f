/**
 * EDNS(0) over DoH: OPT echoed with our payload size and the DO bit, BADVERS for version ≠ 0,
 * no OPT when the query had none, NOTIMP for other opcodes (also without a question), large answers
 * never truncated.
 */
import { beforeAll, describe, expect, it } from 'vitest'
import { decodeMessage } from '../../packages/dns-wire/src/index.ts'
import { ask, getWire, postWire } from './helpers/doh.ts'
import { seedZone } from './helpers/seed.ts'

const many = Array.from({ length: 60 }, (_, i) => `big 300 IN TXT "${'x'.repeat(200)}-${i}"`).join(
  '\n'
)

beforeAll(() =>
  seedZone(
    'edns.test',
    `
@      3600 IN SOA ns1 hostmaster 1 7200 3600 1209600 300
www     300 IN A   192.0.2.1
${many}
`
  )
)

describe('EDNS', () => {
  it.each(['GET', 'POST'] as const)('echoes OPT with payload 1232 and DO (%s)', async (method) => {
    const r = await ask('www.edns.test', 'A', { method, edns: { payload: 4096, do: true } })
    expect(r.rcode).toBe('NOERROR')
    expect(r.message.opt).toEqual({
      payload: 1232,
      extendedRcode: 0,
      version: 0,
      do: true,
      options: [],
    })
    expect(r.answer).toEqual(['www.edns.test. 300 A 192.0.2.1'])
  })

  it('DO clear is echoed clear; EDNS options are ignored', async () => {
    const r = await ask('www.edns.test', 'A', {
      edns: {
        do: false,
        options: [
          [10, new Uint8Array(8)],
          [8, new Uint8Array([0, 1, 24, 0, 192, 0, 2])],
        ],
      },
    })
    expect(r.message.opt?.do).toBe(false)
    expect(r.answer).toHaveLength(1)
  })

  it('no OPT in the answer when the query had none', async () => {
    const r = await ask('www.edns.test', 'A')
    expect(r.message.opt).toBeNull()
  })

  it('EDNS version 1 gets BADVERS, not cached', async () => {
    const r = await ask('www.edns.test', 'A', { edns: { version: 1 } })
    expect(r.rcode).toBe('BADVERS')
    expect(r.message.opt?.version).toBe(0)
    expect(r.answer).toEqual([])
    expect(r.cacheControl).toBe('no-store')
  })

  it('opcode other than QUERY gets NOTIMP, not cached', async () => {
    const r = await ask('www.edns.test', 'A', { opcode: 2 })
    expect(r.rcode).toBe('NOTIMP')
    expect(r.message.opcode).toBe(2)
    expect(r.cacheControl).toBe('no-store')
  })

  it.each([1, 2, 6, 15])(
    'opcode %i with no question (a DSO message is one) gets NOTIMP, not FORMERR',
    async (opcode) => {
      const bytes = new Uint8Array(12)
      bytes.set([0x12, 0x34, (opcode << 3) | 0x01])
      for (const res of [await getWire(bytes), await postWire(bytes)]) {
        expect(res.status).toBe(200)
        expect(res.headers.get('cache-control')).toBe('no-store')
        const m = decodeMessage(new Uint8Array(await res.arrayBuffer()))
        expect(m).toMatchObject({ id: 0x1234, qr: true, opcode, rd: true, rcode: 4 })
      }
    }
  )

  it('a 12 KB answer is not truncated, even with a small advertised payload', async () => {
    const r = await ask('big.edns.test', 'TXT', { edns: { payload: 512 } })
    expect(r.message.tc).toBe(false)
    expect(r.answer).toHaveLength(60)
  })

  it('echoes id, RD and CD', async () => {
    const r = await ask('www.edns.test', 'A', { id: 0xbeef, rd: false, cd: true, method: 'POST' })
    expect(r.message).toMatchObject({
      id: 0xbeef,
      qr: true,
      rd: false,
      cd: true,
      ra: false,
      aa: true,
    })
  })
})
