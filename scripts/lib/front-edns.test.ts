/**
 * EDNS in the DNS front's answers (dns-front.mjs), with the cache on, against a stand-in DoH
 * endpoint that answers as the DoH worker does: an OPT record in the answer exactly when the query
 * had one (RFC 6891 §6.1.1, §7), BADVERS to an EDNS version other than 0 (§6.1.3). An answer
 * cached for a query with an OPT is not given to one without, nor the reverse, and a query of
 * another EDNS version is never answered from the cache.
 */
import type http from 'node:http'
import packet from 'dns-packet'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
// @ts-expect-error plain ESM module shared with scripts/dns-front.mjs
import { startDnsFront } from './dns-front.mjs'
import { query, tcpAsk, udpAsk } from './dns-client.ts'
import { stubApi } from './relay-test-messages.ts'

interface Front {
  port: number
  close: () => void
}

/** Requests that reached the stand-in DoH endpoint, per lower-cased question name. */
const asked = new Map<string, number>()
/** The EDNS option codes of the last query for each lower-cased question name. */
const optionCodes = new Map<string, number[]>()
let doh: { base: string; close(): void }
const fronts: Front[] = []

/**
 * Answers every name an A record (TTL 300), except `fail-…` (HTTP 500) and `big-…` (a TXT answer
 * of about 2 KB); an OPT record (payload 1232, the query's DO bit) when the query had one,
 * BADVERS (extended rcode 1, no records) when its EDNS version is not 0.
 */
function answerDoh(_req: http.IncomingMessage, body: Buffer, res: http.ServerResponse): void {
  const q = packet.decode(body)
  const name = q.questions![0]!.name
  asked.set(name.toLowerCase(), (asked.get(name.toLowerCase()) ?? 0) + 1)
  if (name.startsWith('fail-')) return void res.writeHead(500).end('down')
  const opt = q.additionals?.find((rr) => rr.type === 'OPT') as packet.OptAnswer | undefined
  optionCodes.set(
    name.toLowerCase(),
    (opt?.options ?? []).map((o) => o.code)
  )
  const version = opt?.ednsVersion ?? 0
  const data = name.startsWith('big-')
    ? { type: 'TXT' as const, data: Array.from({ length: 8 }, (_, i) => `${i}`.repeat(250)) }
    : { type: 'A' as const, data: '192.0.2.1' }
  const answer = packet.encode({
    id: q.id,
    type: 'response',
    flags: packet.AUTHORITATIVE_ANSWER | (q.flags! & packet.RECURSION_DESIRED),
    questions: q.questions,
    answers: version === 0 ? [{ name, ttl: 300, ...data }] : [],
    additionals: opt
      ? [
          {
            name: '.',
            type: 'OPT',
            udpPayloadSize: 1232,
            extendedRcode: version === 0 ? 0 : 1,
            ednsVersion: 0,
            flags: (opt.flags ?? 0) & packet.DNSSEC_OK,
            flag_do: opt.flag_do,
            options: [],
          } satisfies packet.OptAnswer,
        ]
      : [],
  } as packet.Packet)
  res.writeHead(200, { 'content-type': 'application/dns-message' }).end(answer)
}

beforeAll(async () => {
  doh = await stubApi(answerDoh)
})
afterAll(() => doh?.close())
afterEach(() => {
  while (fronts.length) fronts.pop()!.close()
})

/** A front with the cache and RRL at their deployed defaults, unless `options` say otherwise. */
async function front(options: object = {}): Promise<Front> {
  const f: Front = await startDnsFront({ target: doh.base, cache: {}, rrl: {}, ...options })
  fronts.push(f)
  return f
}

const unique = (label: string) => `${label}-${Math.random().toString(36).slice(2)}.test`

/** The answer's OPT record, or undefined when it has none. */
function optOf(answer: Buffer | null): packet.OptAnswer | undefined {
  expect(answer).not.toBeNull()
  const additionals = packet.decode(answer!).additionals ?? []
  expect(additionals.filter((rr) => rr.type !== 'OPT')).toEqual([])
  return additionals.find((rr) => rr.type === 'OPT') as packet.OptAnswer | undefined
}

/** `q` (a query whose OPT record is its last record) with that OPT's EDNS version set. */
function withVersion(q: Buffer, version: number): Buffer {
  const out = Buffer.from(q)
  out[out.length - 5] = version
  return out
}

describe('the cache and EDNS', () => {
  it('does not answer a query without OPT from an answer cached for one with OPT', async () => {
    const f = await front()
    const name = unique('opt-first')
    expect(optOf(await udpAsk(f.port, query(name, 'A', 1232)))).toBeDefined()
    expect(optOf(await udpAsk(f.port, query(name, 'A')))).toBeUndefined()
    expect(optOf(await tcpAsk(f.port, query(name, 'A')))).toBeUndefined()
    // Each answer came from the cache once it held one of its kind.
    expect(optOf(await udpAsk(f.port, query(name, 'A', 1232)))).toBeDefined()
    expect(asked.get(name)).toBe(2)
  })

  it('does not answer a query with OPT from an answer cached for one without', async () => {
    const f = await front()
    const name = unique('plain-first')
    expect(optOf(await udpAsk(f.port, query(name, 'A')))).toBeUndefined()
    expect(optOf(await udpAsk(f.port, query(name, 'A', 1232)))).toBeDefined()
    expect(optOf(await tcpAsk(f.port, query(name, 'A', 1232, true)))?.flags).toBe(packet.DNSSEC_OK)
    expect(asked.get(name)).toBe(3)
  })

  it('asks the DoH endpoint without the Padding option (plain DNS is not padded), keeping the others', async () => {
    const f = await front()
    const name = unique('padding')
    // The OPT record (the last 11 octets) gains a Padding option (12) between two cookies (10).
    const padded = (q: Buffer) => {
      const options = Buffer.from([0, 10, 0, 8, 1, 2, 3, 4, 5, 6, 7, 8, 0, 12, 0, 2, 0, 0])
      const out = Buffer.concat([q, options, options.subarray(0, 12)])
      out.writeUInt16BE(options.length + 12, q.length - 2)
      return out
    }
    for (let i = 0; i < 2; i++) {
      const answer = await udpAsk(f.port, padded(query(name, 'A', 1232)))
      expect(packet.decode(answer!).answers).toHaveLength(1)
    }
    expect(optionCodes.get(name)).toEqual([10, 10])
    // The second answer came from the cache, as one to a query without padding would.
    await udpAsk(f.port, query(name, 'A', 1232))
    expect(asked.get(name)).toBe(1)
  })

  it('answers an EDNS version other than 0 with BADVERS from the upstream, never from the cache', async () => {
    const f = await front()
    const name = unique('version')
    expect(packet.decode((await udpAsk(f.port, query(name, 'A', 1232)))!).answers).toHaveLength(1)
    for (const ask of [udpAsk, tcpAsk]) {
      const answer = await ask(f.port, withVersion(query(name, 'A', 1232), 1))
      expect(optOf(answer)?.extendedRcode).toBe(1) // BADVERS: extended rcode 1, header rcode 0
      expect(packet.decode(answer!).answers).toEqual([])
    }
    expect(asked.get(name)).toBe(3)
  })
})

describe("the front's own answers and EDNS", () => {
  /** Its OPT's DO bit: 'none' without an OPT record. */
  const doOf = (answer: Buffer | null) => {
    const opt = optOf(answer)
    return opt ? (opt.flags & packet.DNSSEC_OK) !== 0 : 'none'
  }

  it('gives SERVFAIL an OPT record (version 0, its payload, the DO bit echoed) when the query had one', async () => {
    const f = await front()
    for (const ask of [udpAsk, tcpAsk]) {
      const answer = (await ask(f.port, query(unique('fail'), 'A', 4096, true)))!
      expect(answer[3]! & 0x0f).toBe(2)
      const opt = optOf(answer)!
      expect([opt.udpPayloadSize, opt.ednsVersion, opt.extendedRcode]).toEqual([1232, 0, 0])
      expect(doOf(answer)).toBe(true)
      expect(doOf(await ask(f.port, query(unique('fail'), 'A', 1232)))).toBe(false)
      expect(doOf(await ask(f.port, query(unique('fail'), 'A')))).toBe('none')
    }
  })

  it('gives a truncated UDP answer an OPT record when the query had one (RFC 6891 §7)', async () => {
    const f = await front()
    const name = unique('big')
    const tc = (await udpAsk(f.port, query(name, 'TXT', 1232, true)))!
    expect(tc[2]! & 0x02).toBe(0x02)
    expect(packet.decode(tc).questions).toEqual([{ name, type: 'TXT', class: 'IN' }])
    expect(doOf(tc)).toBe(true)
    const plain = (await udpAsk(f.port, query(name, 'TXT')))!
    expect(plain[2]! & 0x02).toBe(0x02)
    expect(doOf(plain)).toBe('none')
  })

  it('gives an answer slipped by RRL an OPT record when the query had one', async () => {
    const f = await front({ rrl: { rate: 1, slip: 1 } })
    const name = unique('slip')
    expect(doOf(await udpAsk(f.port, query(name, 'A', 1232)))).toBe(false)
    const slipped = (await udpAsk(f.port, query(name, 'A', 1232)))!
    expect(slipped[2]! & 0x02).toBe(0x02)
    expect(packet.decode(slipped).answers).toEqual([])
    expect(doOf(slipped)).toBe(false)
  })
})

describe('SOA questions', () => {
  it('are always asked upstream, so a secondary checking after a NOTIFY sees the serial served now', async () => {
    const f = await front()
    const name = unique('soa')
    for (const ask of [udpAsk, tcpAsk, udpAsk]) await ask(f.port, query(name, 'SOA'))
    expect(asked.get(name)).toBe(3)
    // Other types of the same name are still cached.
    for (const ask of [udpAsk, udpAsk]) await ask(f.port, query(name, 'A'))
    expect(asked.get(name)).toBe(4)
  })
})
