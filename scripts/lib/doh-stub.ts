/**
 * A stand-in DoH endpoint for the DNS front's tests: `POST /dns-query` answers from a small table
 * of names and counts what reaches it (requests, and the TCP connections they came on).
 *
 *   www.test A (TTL 300)       short.test A (TTL 1)       big.test TXT (about 2 KB, TTL 300)
 *   mid.test TXT (about 800 bytes, TTL 300)
 *   a name under nx.test: NXDOMAIN with the SOA (TTL 3600, minimum 2)
 *   slow.test: never answered  fail.test: HTTP 500        anything else: REFUSED
 */
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import packet from 'dns-packet'

export interface DohStub {
  base: string
  /** Requests per lower-cased question name. */
  asked: Map<string, number>
  connections: () => number
  close: () => void
}

function answerFor(query: packet.Packet): { status: number; body?: Buffer } | null {
  const q = query.questions?.[0]
  const name = (q?.name ?? '').toLowerCase()
  const reply = (init: Partial<packet.Packet>) => ({
    status: 200,
    body: packet.encode({
      id: query.id,
      type: 'response',
      flags: packet.AUTHORITATIVE_ANSWER | (init.flags ?? 0),
      questions: query.questions,
      answers: init.answers ?? [],
      authorities: init.authorities ?? [],
    }),
  })
  const a = (ttl: number, data: string) => ({ name: q!.name, type: 'A' as const, ttl, data })
  if (name === 'slow.test') return null
  if (name === 'fail.test') return { status: 500 }
  if (name === 'www.test') return reply({ answers: [a(300, '192.0.2.1')] })
  if (name === 'short.test') return reply({ answers: [a(1, '192.0.2.2')] })
  if (name === 'big.test' || name === 'mid.test') {
    const data = Array.from({ length: name === 'big.test' ? 8 : 3 }, (_, i) => `${i}`.repeat(250))
    return reply({ answers: [{ name: q!.name, type: 'TXT', ttl: 300, data }] })
  }
  if (name.endsWith('.nx.test')) {
    const soa = {
      mname: 'ns.nx.test',
      rname: 'host.nx.test',
      serial: 1,
      refresh: 3600,
      retry: 600,
      expire: 86400,
      minimum: 2,
    }
    return reply({
      flags: 3, // NXDOMAIN
      authorities: [{ name: 'nx.test', type: 'SOA', ttl: 3600, data: soa }],
    })
  }
  return reply({ flags: 5 }) // REFUSED
}

export async function startDohStub(): Promise<DohStub> {
  const asked = new Map<string, number>()
  let connections = 0
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = []
    req.on('data', (c: Buffer) => chunks.push(c))
    req.on('end', () => {
      const query = packet.decode(Buffer.concat(chunks))
      const name = (query.questions?.[0]?.name ?? '').toLowerCase()
      asked.set(name, (asked.get(name) ?? 0) + 1)
      const answer = answerFor(query)
      if (!answer) return // never answered
      res.writeHead(answer.status, { 'content-type': 'application/dns-message' })
      res.end(answer.body)
    })
  })
  server.on('connection', () => (connections += 1))
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return {
    base: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    asked,
    connections: () => connections,
    close: () => {
      server.closeAllConnections()
      server.close()
    },
  }
}
