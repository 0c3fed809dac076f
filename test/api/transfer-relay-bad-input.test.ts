/**
 * Bad input to the DNS front's relay endpoints (`/dns_transfer`, `/dns_notify`): bodies that are
 * not DNS messages, truncated or garbage messages, bad client addresses. A bad request body is a
 * 4xx in the Cloudflare envelope; a DNS message the relay can read but must refuse gets a DNS
 * answer (FORMERR, REFUSED, NOTAUTH); never a 500.
 */
import { exports } from 'cloudflare:workers'
import { describe, expect, it } from 'vitest'
import { decodeMessage, encodeQuery } from '../../packages/dns-wire/src/index.ts'
import { parseTsigKey, signMessage } from '../../packages/zone-transfer/src/index.ts'
import { api, DEV_TOKEN } from './helpers.ts'
import { base, created, SECRET, unique, zoneOfType } from './secondary-dns-helpers.ts'
import { BIG, MALFORMED_BODIES, raw, refused } from './secondary-dns-bad-input-helpers.ts'

describe('POST /dns_transfer with bad DNS messages', () => {
  const relay = (body: Uint8Array | string | undefined, headers: Record<string, string> = {}) =>
    raw('POST', '/dns_transfer', body as BodyInit | undefined, 'application/dns-message', {
      'x-edgedns-client-address': '192.0.2.10',
      ...headers,
    })

  it.each([
    ['an empty body', new Uint8Array(0)],
    ['one byte', new Uint8Array([0])],
    ['eleven bytes', new Uint8Array(11)],
    ['more than 65535 bytes', new Uint8Array(65536)],
  ])('%s is 400 1004', async (_, body) => {
    refused(await relay(body), 400, 1004)
  })

  it('a wrong content type, and a client address that is not one, are 400 6003', async () => {
    const query = encodeQuery('example.com', 'AXFR', { id: 1, rd: false })
    refused(await raw('POST', '/dns_transfer', query, 'application/json'), 400, 6003)
    refused(await relay(query, { 'x-edgedns-client-address': 'not-an-ip' }), 400, 6003)
    refused(await relay(query, { 'x-edgedns-client-address': '' }), 400, 6003)
    refused(await relay(query, { 'x-edgedns-client-transport': 'sctp' }), 400, 6003)
  })

  /** A 12-octet header: id 0x1234, a query, with these section counts. */
  const header = (qd: number, an = 0, ns = 0, ar = 0) =>
    new Uint8Array([
      0x12,
      0x34,
      0,
      0,
      qd >> 8,
      qd & 255,
      an >> 8,
      an & 255,
      ns >> 8,
      ns & 255,
      ar >> 8,
      ar & 255,
    ])

  /** `body` posted to the transfer relay, as the front sends a client's message. */
  const relayPost = (body: Uint8Array): Promise<Response> =>
    (exports as any).default.fetch('http://localhost/client/v4/dns_transfer', {
      method: 'POST',
      headers: {
        authorization: `Bearer ${DEV_TOKEN}`,
        'content-type': 'application/dns-message',
        'x-edgedns-client-address': '192.0.2.10',
      },
      body,
    })

  it.each([
    ['a header alone claiming one question', header(1)],
    ['a header claiming 65535 questions', header(65535)],
    ['a header claiming answers that are not there', header(0, 3, 2, 1)],
    ['no question at all', header(0)],
    ['a question cut in its name', new Uint8Array([...header(1), 7, 0x65, 0x78])],
    ['a question without type and class', new Uint8Array([...header(1), 0])],
    ['a compression pointer loop', new Uint8Array([...header(1), 0xc0, 12, 0, 252, 0, 1])],
    ['random bytes', Uint8Array.from({ length: 300 }, (_, i) => (i * 73 + 11) & 255)],
  ])('%s is answered as DNS (FORMERR/REFUSED), never a 500', async (_, body) => {
    const res = await relayPost(body)
    const bytes = new Uint8Array(await res.arrayBuffer())
    expect(res.status, new TextDecoder().decode(bytes)).toBe(200)
    if (bytes.length === 0) return // even the header is unreadable: nothing to answer
    const length = (bytes[0]! << 8) | bytes[1]!
    expect(bytes.length).toBe(length + 2)
    const message = bytes.subarray(2)
    expect(message.subarray(0, 2)).toEqual(body.subarray(0, 2)) // the query's id
    expect(message[2]! & 0x80).toBe(0x80) // QR
    expect([1, 4, 5, 9]).toContain(message[3]! & 0x0f) // FORMERR, NOTIMP, REFUSED, NOTAUTH
  })

  it.each([
    ['no question', header(0)],
    [
      'two questions',
      new Uint8Array([
        ...header(2),
        ...[7, ...new TextEncoder().encode('example'), 3, 0x63, 0x6f, 0x6d, 0, 0, 252, 0, 1],
        ...[0xc0, 12, 0, 252, 0, 1],
      ]),
    ],
  ])('a request with %s is FORMERR (a transfer names one zone)', async (_, body) => {
    const res = await relayPost(body)
    const bytes = new Uint8Array(await res.arrayBuffer())
    expect(res.status).toBe(200)
    expect(bytes[5]! & 0x0f).toBe(1) // FORMERR (after the two-octet length prefix)
  })
})

describe('POST /dns_notify with bad input', () => {
  const b64 = (bytes: Uint8Array) => btoa(String.fromCharCode(...bytes))
  const notify = encodeQuery('example.com', 'SOA', { id: 5, opcode: 4, rd: false })

  it.each(MALFORMED_BODIES)('%s is refused', async (_, body, code) => {
    refused(await raw('POST', '/dns_notify', body), 400, code)
  })

  it.each([
    ['client_ip missing', { message: b64(notify) }],
    ['client_ip a number', { client_ip: 3221225985, message: b64(notify) }],
    ['client_ip not an address', { client_ip: 'not-an-ip', message: b64(notify) }],
    ['client_ip a CIDR', { client_ip: '192.0.2.0/24', message: b64(notify) }],
    ['client_ip of 100 KB', { client_ip: BIG, message: b64(notify) }],
    ['message missing', { client_ip: '192.0.2.1' }],
    ['message not base64', { client_ip: '192.0.2.1', message: '***' }],
    ['message empty', { client_ip: '192.0.2.1', message: '' }],
    ['message one byte', { client_ip: '192.0.2.1', message: b64(new Uint8Array([1])) }],
    ['message shorter than a header', { client_ip: '192.0.2.1', message: b64(new Uint8Array(11)) }],
    ['message of 100 KB', { client_ip: '192.0.2.1', message: 'A'.repeat(100_000) }],
    ['message of 66,000 octets', { client_ip: '192.0.2.1', message: 'A'.repeat(88_000) }],
    ['an unknown field', { client_ip: '192.0.2.1', message: b64(notify), zone: 'x' }],
  ])('%s is 400 9000', async (_, body) => {
    refused(await api('POST', '/dns_notify', body), 400, 9000)
  })

  it('a NOTIFY whose TSIG record is malformed is answered FORMERR, not 500', async () => {
    const zone = await zoneOfType('secondary')
    const keyName = `${unique('notify')}.example`
    const tsig = await created(`${base}/tsigs`, {
      name: keyName,
      algo: 'hmac-sha256.',
      secret: SECRET,
    })
    const key = parseTsigKey(`hmac-sha256:${keyName}:${SECRET}`)
    const peer = await created(`${base}/peers`, {
      name: unique('primary'),
      ip: '198.51.100.77',
      tsig_id: tsig.id,
    })
    await created(`/zones/${zone.id}/secondary_dns/incoming`, {
      name: zone.name,
      peers: [peer.id],
      auto_refresh_seconds: 86400,
    })
    const query = encodeQuery(zone.name, 'SOA', { id: 21, opcode: 4, rd: false })
    const { message } = await signMessage(query, key, { time: Math.floor(Date.now() / 1000) })
    const send = async (m: Uint8Array) => {
      const res = await api('POST', '/dns_notify', { client_ip: '198.51.100.77', message: b64(m) })
      expect(res.status, JSON.stringify(res.body)).toBe(200)
      return decodeMessage(Uint8Array.from(atob(res.body.result.message), (ch) => ch.charCodeAt(0)))
    }
    expect((await send(message)).rcode).toBe(0) // well signed: accepted
    // The TSIG record follows the question: its owner (the key name), type, class, TTL, rdlength.
    const classAt = query.length + keyName.length + 2 + 2
    const rdlengthAt = classAt + 6
    const classIn = message.slice()
    classIn[classAt] = 0
    classIn[classAt + 1] = 1
    const notLast = new Uint8Array([...message, 0, 0, 1, 0, 1, 0, 0, 0, 0, 0, 4, 192, 0, 2, 1])
    notLast[11] = 2 // ARCOUNT: the TSIG, then an A record
    const longer = new Uint8Array([...message, 0])
    longer[rdlengthAt + 1]! += 1
    const shortRdata = message.slice(0, rdlengthAt + 5)
    shortRdata[rdlengthAt] = 0
    shortRdata[rdlengthAt + 1] = 3
    for (const bad of [classIn, notLast, longer, shortRdata]) {
      expect((await send(bad)).rcode).toBe(1) // FORMERR
    }
  })

  it.each([
    [
      'a header claiming 65535 questions',
      new Uint8Array([0, 9, 0x20, 0, 255, 255, 0, 0, 0, 0, 0, 0]),
    ],
    [
      'a header claiming records not there',
      new Uint8Array([0, 9, 0x20, 0, 0, 1, 0, 5, 0, 5, 0, 5]),
    ],
    ['garbage after a header', new Uint8Array([0, 9, 0x20, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0xc0, 12])],
    ['a query (not a NOTIFY)', encodeQuery('example.com', 'SOA', { id: 9, rd: false })],
  ])('%s is answered with a DNS error rcode, never a 500', async (_, message) => {
    const res = await api('POST', '/dns_notify', { client_ip: '192.0.2.1', message: b64(message) })
    expect(res.status, JSON.stringify(res.body)).toBe(200)
    const answer = res.body.result.message
    expect(answer === null || typeof answer === 'string').toBe(true)
    if (answer !== null) {
      const bytes = Uint8Array.from(atob(answer), (ch) => ch.charCodeAt(0))
      expect([1, 5]).toContain(bytes[3]! & 0x0f) // FORMERR or REFUSED
    }
  })
})
