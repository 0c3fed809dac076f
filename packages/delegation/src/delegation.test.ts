import packet from 'dns-packet'
import { describe, expect, it } from 'vitest'
import {
  delegationQuery,
  DelegationError,
  enclosingZone,
  findDelegation,
  isAtOrBelow,
  nameServersOf,
  parentName,
  readParentAnswer,
  type DelegationIo,
  type ResolverAnswer,
} from './index.ts'

const SOA = 6
const NS = 2
const AA = 1 << 10

/** A server's answer to `<zone> NS`, encoded by dns-packet (an encoder independent of ours). */
function reply(
  id: number,
  zone: string,
  sections: {
    aa?: boolean
    rcode?: number
    answers?: packet.Answer[]
    authorities?: packet.Answer[]
    additionals?: packet.Answer[]
    question?: string
  } = {}
): Uint8Array {
  return new Uint8Array(
    packet.encode({
      type: 'response',
      id,
      flags: (sections.aa ? AA : 0) | (sections.rcode ?? 0),
      questions: [{ type: 'NS', name: sections.question ?? zone, class: 'IN' }],
      answers: sections.answers ?? [],
      authorities: sections.authorities ?? [],
      additionals: sections.additionals ?? [],
    })
  )
}

const ns = (name: string, data: string): packet.Answer => ({ type: 'NS', name, ttl: 172800, data })
const soa = (name: string): packet.Answer => ({
  type: 'SOA',
  name,
  ttl: 900,
  data: {
    mname: `a.${name}`,
    rname: `hostmaster.${name}`,
    serial: 1,
    refresh: 1800,
    retry: 900,
    expire: 604800,
    minimum: 86400,
  },
})

describe('names', () => {
  it('gives the parent name and compares names without regard to case or a trailing dot', () => {
    expect(parentName('Example.CO.uk.')).toBe('co.uk')
    expect(parentName('com')).toBe('')
    expect(isAtOrBelow('www.example.com', 'EXAMPLE.com.')).toBe(true)
    expect(isAtOrBelow('example.com', 'example.com')).toBe(true)
    expect(isAtOrBelow('badexample.com', 'example.com')).toBe(false)
    expect(isAtOrBelow('com', '')).toBe(true)
  })
})

describe('choosing the zone above', () => {
  it('takes the SOA owner of the answer when the parent name is a zone apex', () => {
    const r: ResolverAnswer = { answer: [{ name: 'co.uk.', type: SOA, data: '…' }], authority: [] }
    expect(enclosingZone('co.uk', r)).toBe('co.uk')
  })

  it('takes the deepest SOA owner above the name from a negative answer', () => {
    const r: ResolverAnswer = {
      answer: [],
      authority: [
        { name: 'example.com.', type: SOA, data: '…' },
        { name: 'elsewhere.net.', type: SOA, data: '…' },
        { name: 'sub.example.com.', type: NS, data: 'ns.example.net.' },
      ],
    }
    expect(enclosingZone('dept.example.com', r)).toBe('example.com')
    expect(enclosingZone('dept.example.com', { answer: [], authority: [] })).toBeNull()
    expect(
      enclosingZone('dept.example.com', {
        answer: [],
        authority: [{ name: 'other.org.', type: SOA, data: '…' }],
      })
    ).toBeNull()
  })

  it("reads the parent's name servers from the answer to its NS question", () => {
    const r: ResolverAnswer = {
      answer: [
        { name: 'com.', type: NS, data: 'A.GTLD-SERVERS.NET.' },
        { name: 'com.', type: NS, data: 'b.gtld-servers.net.' },
        { name: 'com.', type: NS, data: 'a.gtld-servers.net' },
        { name: 'net.', type: NS, data: 'x.example.' },
      ],
      authority: [],
    }
    expect(nameServersOf('com', r)).toEqual(['a.gtld-servers.net', 'b.gtld-servers.net'])
  })
})

describe('the delegation query', () => {
  it('asks NS of the zone with recursion not desired', () => {
    const q = packet.decode(Buffer.from(delegationQuery('Example.com.', 77)))
    expect(q.id).toBe(77)
    expect(q.flags! & 0x100).toBe(0)
    expect(q.questions).toEqual([{ name: 'example.com', type: 'NS', class: 'IN' }])
  })
})

describe("reading a parent server's answer", () => {
  const zone = 'example.com'

  it('reads the NS set of a referral (authority section, not authoritative), glue ignored', () => {
    const bytes = reply(7, zone, {
      authorities: [ns('example.com', 'NS1.EdgeDNS.dev'), ns('example.com', 'ns2.edgedns.dev')],
      additionals: [{ type: 'A', name: 'ns1.edgedns.dev', ttl: 60, data: '192.0.2.1' }],
    })
    expect(readParentAnswer(zone, 'com', 7, bytes)).toEqual({
      kind: 'delegated',
      nameServers: ['ns1.edgedns.dev', 'ns2.edgedns.dev'],
    })
  })

  it('reads the NS set of an authoritative answer (the server serves the zone too)', () => {
    const bytes = reply(8, zone, { aa: true, answers: [ns('example.com', 'ns.host.example')] })
    expect(readParentAnswer(zone, 'com', 8, bytes)).toEqual({
      kind: 'delegated',
      nameServers: ['ns.host.example'],
    })
  })

  it('reports no delegation for an authoritative NXDOMAIN or NODATA', () => {
    const nx = reply(9, zone, { aa: true, rcode: 3, authorities: [soa('com')] })
    expect(readParentAnswer(zone, 'com', 9, nx)).toMatchObject({
      kind: 'not-delegated',
      reason: 'example.com does not exist in com',
    })
    const nodata = reply(9, zone, { aa: true, authorities: [soa('com')] })
    expect(readParentAnswer(zone, 'com', 9, nodata).kind).toBe('not-delegated')
  })

  it('follows a referral to a cut between the parent and the zone', () => {
    const bytes = reply(10, 'shop.example.co.uk', {
      authorities: [ns('example.co.uk', 'ns.registrar.example')],
    })
    expect(readParentAnswer('shop.example.co.uk', 'co.uk', 10, bytes)).toEqual({
      kind: 'closer',
      zone: 'example.co.uk',
      nameServers: ['ns.registrar.example'],
    })
  })

  it('finds nothing usable in a lame answer, an error rcode, a mismatched or malformed answer', () => {
    const upward = reply(11, zone, { authorities: [ns('', 'a.root-servers.net')] })
    expect(readParentAnswer(zone, 'com', 11, upward)).toMatchObject({ kind: 'unusable' })
    expect(readParentAnswer(zone, 'com', 11, reply(11, zone, { rcode: 5 }))).toEqual({
      kind: 'unusable',
      reason: 'rcode REFUSED',
    })
    const referral = reply(12, zone, { authorities: [ns('example.com', 'ns1.edgedns.dev')] })
    expect(readParentAnswer(zone, 'com', 13, referral).kind).toBe('unusable')
    const other = reply(12, zone, { question: 'other.com', authorities: [ns('example.com', 'x.')] })
    expect(readParentAnswer(zone, 'com', 12, other).kind).toBe('unusable')
    expect(readParentAnswer(zone, 'com', 12, new Uint8Array([1, 2, 3])).kind).toBe('unusable')
  })
})

/** Scripted I/O: resolver answers by "name type", servers by host name (a function of the query's id). */
function fakeIo(
  resolver: Record<string, ResolverAnswer>,
  servers: Record<string, (id: number, query: Uint8Array) => Uint8Array | Error>,
  clock = { t: 0, perExchange: 0 }
): DelegationIo & { asked: string[] } {
  const asked: string[] = []
  let nextId = 100
  return {
    asked,
    async resolve(name, type) {
      asked.push(`resolve ${name} ${type}`)
      const r = resolver[`${name} ${type}`]
      if (!r) throw new Error('SERVFAIL')
      return r
    },
    async exchange(server, query) {
      asked.push(`exchange ${server}`)
      clock.t += clock.perExchange
      const q = packet.decode(Buffer.from(query))
      const answer = servers[server]?.(q.id!, query) ?? new Error('connection refused')
      if (answer instanceof Error) throw answer
      return answer
    },
    id: () => nextId++,
    now: () => clock.t,
  }
}

const comParent: Record<string, ResolverAnswer> = {
  'com 6': { answer: [{ name: 'com.', type: SOA, data: '…' }], authority: [] },
  'com 2': {
    answer: [
      { name: 'com.', type: NS, data: 'a.gtld-servers.net.' },
      { name: 'com.', type: NS, data: 'b.gtld-servers.net.' },
      { name: 'com.', type: NS, data: 'c.gtld-servers.net.' },
    ],
    authority: [],
  },
}
const limits = { maxExchanges: 4, exchangeTimeoutMs: 1000, deadline: 10_000 }

describe('finding a delegation from the parent zone', () => {
  it("asks the parent's servers in turn until one answers with the referral", async () => {
    const io = fakeIo(comParent, {
      'a.gtld-servers.net': () => new Error('timed out'),
      'b.gtld-servers.net': (id) => reply(id, 'example.com', { rcode: 5 }),
      'c.gtld-servers.net': (id) =>
        reply(id, 'example.com', { authorities: [ns('example.com', 'ns1.edgedns.dev')] }),
    })
    expect(await findDelegation('example.com', io, limits)).toEqual({
      nameServers: ['ns1.edgedns.dev'],
      parent: 'com',
      server: 'c.gtld-servers.net',
    })
    expect(io.asked).toEqual([
      'resolve com 6',
      'resolve com 2',
      'exchange a.gtld-servers.net',
      'exchange b.gtld-servers.net',
      'exchange c.gtld-servers.net',
    ])
  })

  it('continues at a closer cut, and reports no delegation when the parent has none', async () => {
    const io = fakeIo(
      {
        'example.co.uk 6': {
          answer: [],
          authority: [{ name: 'co.uk.', type: SOA, data: '…' }],
        },
        'co.uk 2': { answer: [{ name: 'co.uk.', type: NS, data: 'dns1.nic.uk.' }], authority: [] },
      },
      {
        'dns1.nic.uk': (id) =>
          reply(id, 'shop.example.co.uk', {
            authorities: [ns('example.co.uk', 'ns.registrar.example')],
          }),
        'ns.registrar.example': (id) =>
          reply(id, 'shop.example.co.uk', {
            aa: true,
            rcode: 3,
            authorities: [soa('example.co.uk')],
          }),
      }
    )
    expect(await findDelegation('shop.example.co.uk', io, limits)).toEqual({
      nameServers: [],
      parent: 'example.co.uk',
      server: 'ns.registrar.example',
      reason: 'shop.example.co.uk does not exist in example.co.uk',
    })
  })

  it('stops after its query budget or its deadline, saying what each server did', async () => {
    const refusing = Object.fromEntries(
      ['a', 'b', 'c'].map((s) => [
        `${s}.gtld-servers.net`,
        (id: number) => reply(id, 'example.com', { rcode: 5 }),
      ])
    )
    const few = fakeIo(comParent, refusing)
    const error = await findDelegation('example.com', few, { ...limits, maxExchanges: 2 }).catch(
      (e: unknown) => e
    )
    expect(error).toBeInstanceOf(DelegationError)
    expect((error as Error).message).toBe(
      'no name server of com answered for the delegation of example.com (a.gtld-servers.net: rcode REFUSED; b.gtld-servers.net: rcode REFUSED; stopped after 2 queries)'
    )
    expect(few.asked.filter((a) => a.startsWith('exchange'))).toHaveLength(2)

    const slow = fakeIo(comParent, refusing, { t: 0, perExchange: 6000 })
    await expect(findDelegation('example.com', slow, limits)).rejects.toThrow('out of time')
    expect(slow.asked.filter((a) => a.startsWith('exchange'))).toHaveLength(2)
  })

  it('fails with a DelegationError when the resolver cannot name the parent or its servers', async () => {
    await expect(findDelegation('example.com', fakeIo({}, {}), limits)).rejects.toThrow(
      'the zone above example.com could not be found (SERVFAIL)'
    )
    await expect(
      findDelegation('example.com', fakeIo({ 'com 6': comParent['com 6']! }, {}), limits)
    ).rejects.toThrow('the name servers of com could not be looked up (SERVFAIL)')
  })
})
