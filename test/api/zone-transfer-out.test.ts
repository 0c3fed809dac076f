/**
 * Outgoing zone transfers through `POST /dns_transfer` (the DNS front's relay): the zone's outgoing
 * settings, the client address (ACL or peer), the peers' TSIG keys, a streamed AXFR of a zone
 * larger than one D1 page, IXFR when the secondary is current, and bad HTTP input.
 */
import { env } from 'cloudflare:workers'
import { decodeMessage, encodeQuery, type MessageRR } from '../../packages/dns-wire/src/index.ts'
import {
  notifyMessage,
  signMessage,
  splitTsig,
  TsigStreamVerifier,
} from '../../packages/zone-transfer/src/index.ts'
import { describe, expect, it } from 'vitest'
import { changeSteps } from '../../workers/api/src/transfers/change-steps.ts'
import type { ZoneRow } from '../../workers/api/src/zones/model.ts'
import {
  answerRelayedQuery,
  TRANSFER_PAGE,
} from '../../workers/api/src/transfers/outgoing-transfer.ts'
import { api, createZone, DEFAULT_ACCOUNT, expectError } from './helpers.ts'
import { seedRecords } from './seed-records.ts'
import {
  KEY,
  messagesOf,
  now,
  OTHER,
  rcode,
  relay,
  serialOf,
  signed,
  zoneWithTransfers,
} from './transfer-relay.ts'

describe('outgoing transfers relayed to /dns_transfer', () => {
  it('streams a signed AXFR of a zone larger than one D1 page, every record once, SOA first and last', async () => {
    const zone = await zoneWithTransfers()
    const count = TRANSFER_PAGE * 2 + 17
    await seedRecords(zone.id, zone.name, count)
    const request = await signed(zone.name, 'AXFR')
    const messages = await messagesOf(await relay(request.message))
    const verifier = new TsigStreamVerifier(KEY, request.mac, now)
    const answers: MessageRR[] = []
    for (const m of messages) answers.push(...decodeMessage(await verifier.next(m)).answer)
    verifier.finish()
    expect(answers[0]!.typeCode).toBe(6)
    expect(answers[answers.length - 1]!.typeCode).toBe(6)
    const a = answers.filter((rr) => rr.typeCode === 1)
    expect(a).toHaveLength(count)
    expect(new Set(a.map((rr) => rr.name)).size).toBe(count)
    expect(answers.filter((rr) => rr.typeCode === 2).length).toBeGreaterThan(0)
  })

  it('breaks an AXFR off before its closing SOA when the zone changes while it is read', async () => {
    const zone = await zoneWithTransfers()
    // Several messages' worth (a message holds thousands of A records), read 500 records a page.
    await seedRecords(zone.id, zone.name, 6000)
    const read = async (change: boolean): Promise<number[]> => {
      const answer = await answerRelayedQuery(env as never, {
        query: (await signed(zone.name, 'AXFR')).message,
        client: '192.0.2.10',
        now: now(),
        mayRelay: () => true,
        pageSize: 500,
      })
      const reader = answer.body.getReader()
      const sizes: number[] = []
      // The first page is read; a commit may land before the next one is.
      const first = await reader.read()
      sizes.push(first.value!.length)
      if (change)
        expect(
          (
            await api('POST', `/zones/${zone.id}/dns_records`, {
              type: 'A',
              name: 'during-axfr',
              content: '192.0.2.99',
            })
          ).status
        ).toBe(200)
      for (;;) {
        const next = await reader.read()
        if (next.done) return sizes
        sizes.push(next.value.length)
      }
    }
    // The change first: a completed read would leave its packed answer, which answers the next
    // read of that version whole (transfers/packed-axfrs.ts), without reading a page.
    await expect(read(true)).rejects.toThrow(/changed during its transfer/)
    expect((await read(false)).length).toBeGreaterThan(0)
  })

  it('breaks off an AXFR of a one-page zone when a commit lands between its settings and its records', async () => {
    const zone = await zoneWithTransfers()
    await seedRecords(zone.id, zone.name, 5)
    // A commit lands just before the second round trip (the first page of records).
    let batches = 0
    const db = new Proxy(env.DB, {
      get(target, prop) {
        if (prop === 'batch')
          return async (statements: D1PreparedStatement[]) => {
            if (++batches === 2) {
              const change = { type: 'A', name: 'between', content: '192.0.2.98' }
              expect((await api('POST', `/zones/${zone.id}/dns_records`, change)).status).toBe(200)
            }
            return target.batch(statements)
          }
        const value = Reflect.get(target, prop, target) as unknown
        return typeof value === 'function' ? value.bind(target) : value
      },
    })
    const answer = await answerRelayedQuery({ ...env, DB: db } as never, {
      query: (await signed(zone.name, 'AXFR')).message,
      client: '192.0.2.10',
      now: now(),
      mayRelay: () => true,
    })
    await expect(new Response(answer.body).arrayBuffer()).rejects.toThrow(
      /changed during its transfer/
    )
    expect(await answer.completed).toBe(false)
  })

  it('records the completed transfer in last_transferred_on', async () => {
    const zone = await zoneWithTransfers()
    await messagesOf(await relay((await signed(zone.name, 'AXFR')).message))
    let row: { last_transferred_on: string | null } | null = null
    for (let i = 0; i < 50 && !row?.last_transferred_on; i++) {
      await new Promise((r) => setTimeout(r, 20))
      row = await env.DB.prepare(
        'SELECT last_transferred_on FROM zone_transfers_outgoing WHERE zone_id = ?1'
      )
        .bind(zone.id)
        .first()
    }
    expect(row?.last_transferred_on).toMatch(/^\d{4}-/)
  })

  it('refuses an unsigned AXFR when the peers have a TSIG key', async () => {
    const zone = await zoneWithTransfers()
    const [reply] = await messagesOf(await relay(encodeQuery(zone.name, 'AXFR', { id: 1 })))
    expect(rcode(reply!)).toBe(5)
  })

  it('answers NOTAUTH with BADSIG to an AXFR signed with the wrong secret', async () => {
    const zone = await zoneWithTransfers()
    const [reply] = await messagesOf(await relay((await signed(zone.name, 'AXFR', OTHER)).message))
    expect(rcode(reply!)).toBe(9)
    expect(splitTsig(reply!).tsig?.error).toBe(16)
  })

  it('refuses a client outside every ACL, and serves the peer address itself', async () => {
    const zone = await zoneWithTransfers()
    const outside = await messagesOf(
      await relay((await signed(zone.name, 'AXFR')).message, '203.0.113.9')
    )
    expect(outside).toHaveLength(1)
    expect(rcode(outside[0]!)).toBe(5)
    const peer = await messagesOf(
      await relay((await signed(zone.name, 'AXFR')).message, '198.51.100.7')
    )
    expect(rcode(peer[0]!)).toBe(0)
    expect(peer.length).toBeGreaterThanOrEqual(1)
  })

  it('refuses transfers of a zone whose outgoing transfers are disabled or not configured', async () => {
    const disabled = await zoneWithTransfers({ enabled: false })
    // Signed with a peer's key, the REFUSED is signed (RFC 8945 §5.3), from outside the ACLs too.
    for (const [type, from] of [['AXFR'], ['SOA'], ['AXFR', '203.0.113.9']] as const) {
      const request = await signed(disabled.name, type)
      const [a] = await messagesOf(await relay(request.message, from))
      expect(
        decodeMessage(await new TsigStreamVerifier(KEY, request.mac, now).next(a!)).rcode
      ).toBe(5)
    }
    const plain = await createZone('xfr-none')
    const [b] = await messagesOf(await relay((await signed(plain.name, 'AXFR')).message))
    expect(rcode(b!)).toBe(5)
  })

  it('answers SERVFAIL for a secondary zone that is not loaded, to a client that may transfer it', async () => {
    const zone = await zoneWithTransfers()
    await env.DB.prepare("UPDATE zones SET type = 'secondary', secondary_expired = 1 WHERE id = ?1")
      .bind(zone.id)
      .run()
    const query = (await signed(zone.name, 'AXFR')).message
    expect(rcode((await messagesOf(await relay(query)))[0]!)).toBe(2)
    expect(rcode((await messagesOf(await relay(query, '203.0.113.66')))[0]!)).toBe(5)
  })

  it('answers an IXFR from the current serial with the single SOA', async () => {
    const zone = await zoneWithTransfers()
    const serial = (await api('GET', `/zones/${zone.id}/dns_records/export`)).body
    const current = /serial (\d+)/.exec(String(serial))![1]
    const request = await signed(zone.name, 'IXFR', KEY, `${zone.name} ${current}`)
    const messages = await messagesOf(await relay(request.message))
    const answer = decodeMessage(splitTsig(messages[0]!).unsigned).answer
    expect(messages).toHaveLength(1)
    expect(answer).toHaveLength(1)
    expect(answer[0]!.typeCode).toBe(6)
  })

  it('answers an IXFR from an older serial with the condensed difference from the change log', async () => {
    const zone = await zoneWithTransfers()
    const add = (name: string, content: string) =>
      api('POST', `/zones/${zone.id}/dns_records`, {
        type: 'A',
        name: `${name}.${zone.name}`,
        content,
        ttl: 300,
      })
    const kept = (await add('kept', '192.0.2.1')).body.result
    const gone = (await add('gone', '192.0.2.2')).body.result
    const old = await serialOf(zone.id)
    await add('new', '192.0.2.3')
    await api('PATCH', `/zones/${zone.id}/dns_records/${kept.id}`, { content: '192.0.2.11' })
    await api('DELETE', `/zones/${zone.id}/dns_records/${gone.id}`)
    const current = await serialOf(zone.id)
    const request = await signed(zone.name, 'IXFR', KEY, `${zone.name} ${old}`)
    const messages = await messagesOf(await relay(request.message))
    const verifier = new TsigStreamVerifier(KEY, request.mac, now)
    const rrs: MessageRR[] = []
    for (const m of messages) rrs.push(...decodeMessage(await verifier.next(m)).answer)
    verifier.finish()
    const line = (rr: MessageRR) =>
      rr.typeCode === 6 ? `SOA ${rr.data.split(' ')[2]}` : `${rr.name.split('.')[0]} ${rr.data}`
    expect(rrs.map(line)).toEqual([
      `SOA ${current}`,
      `SOA ${old}`,
      'kept 192.0.2.1',
      'gone 192.0.2.2',
      `SOA ${current}`,
      'kept 192.0.2.11',
      'new 192.0.2.3',
      `SOA ${current}`,
    ])
  })

  it('breaks an IXFR off when a commit lands between reading the zone and its changed records', async () => {
    const zone = await zoneWithTransfers()
    const old = await serialOf(zone.id)
    const rec = (
      await api('POST', `/zones/${zone.id}/dns_records`, {
        type: 'A',
        name: `a.${zone.name}`,
        content: '192.0.2.1',
      })
    ).body.result
    const z = (await env.DB.prepare('SELECT * FROM zones WHERE id = ?1').bind(zone.id).first())!
    // The zone row as the transfer read it (the fields the IXFR difference uses).
    const row = { id: z.id, name: z.name, serial: z.serial, changeSeq: z.change_seq } as ZoneRow
    const steps = () => changeSteps(env.DB, row, old, () => null)
    await expect(steps()).resolves.toHaveLength(1)
    await api('PATCH', `/zones/${zone.id}/dns_records/${rec.id}`, { content: '192.0.2.2' })
    await expect(steps()).rejects.toThrow(/changed during its transfer/)
  })

  it('answers an IXFR in the AXFR form when the serial is unknown or the log no longer reaches it', async () => {
    const zone = await zoneWithTransfers()
    const old = await serialOf(zone.id)
    await api('POST', `/zones/${zone.id}/dns_records`, {
      type: 'A',
      name: `a.${zone.name}`,
      content: '192.0.2.1',
      ttl: 300,
    })
    await env.DB.prepare('DELETE FROM change_log WHERE zone_id = ?1').bind(zone.id).run()
    for (const serial of [old, 12345]) {
      const request = await signed(zone.name, 'IXFR', KEY, `${zone.name} ${serial}`)
      const messages = await messagesOf(await relay(request.message))
      const rrs = messages.flatMap((m) => decodeMessage(splitTsig(m).unsigned).answer)
      expect(rrs[0]!.typeCode).toBe(6)
      expect(rrs[1]!.typeCode).not.toBe(6)
      expect(rrs.some((rr) => rr.name.startsWith('a.'))).toBe(true)
    }
  })

  it('answers an IXFR across a change of an apex NS record in the AXFR form, with the zone own name servers', async () => {
    const zone = await zoneWithTransfers()
    const own = ((await api('GET', `/zones/${zone.id}`)).body.result.name_servers as string[])[0]!
    // An apex NS record naming one of the zone's own servers (transferred once, from the settings).
    const dup = await api('POST', `/zones/${zone.id}/dns_records`, {
      type: 'NS',
      name: zone.name,
      content: own,
    })
    expect(dup.status).toBe(200)
    const old = await serialOf(zone.id)
    const deleted = await api('DELETE', `/zones/${zone.id}/dns_records/${dup.body.result.id}`)
    expect(deleted.status).toBe(200)
    const request = await signed(zone.name, 'IXFR', KEY, `${zone.name} ${old}`)
    const rrs = (await messagesOf(await relay(request.message))).flatMap(
      (m) => decodeMessage(splitTsig(m).unsigned).answer
    )
    // SOA, then records (a difference would start SOA, old SOA, and delete that NS record).
    expect(rrs[1]!.typeCode).not.toBe(6)
    const apexNs = rrs.filter((rr) => rr.typeCode === 2 && rr.name.replace(/\.$/, '') === zone.name)
    expect(apexNs.map((rr) => rr.data.toLowerCase().replace(/\.$/, ''))).toContain(own)
  })

  it('transfers stored apex NS records as the whole apex NS set, with the set smallest TTL', async () => {
    const zone = await zoneWithTransfers()
    const apexNs = async () =>
      (await messagesOf(await relay((await signed(zone.name, 'AXFR')).message)))
        .flatMap((m) => decodeMessage(splitTsig(m).unsigned).answer)
        .filter((rr) => rr.typeCode === 2 && rr.name.replace(/\.$/, '') === zone.name)
        .map((rr) => `${rr.ttl} ${rr.data.replace(/\.$/, '')}`)
    const own = (await api('GET', `/zones/${zone.id}`)).body.result.name_servers as string[]
    expect(await apexNs()).toEqual(own.map((ns) => `86400 ${ns}`))
    const stored = (content: string, ttl: number) => ({ type: 'NS', name: zone.name, content, ttl })
    for (const ns of [stored('ns1.secondary.example', 3600), stored('ns2.secondary.example', 900)])
      expect((await api('POST', `/zones/${zone.id}/dns_records`, ns)).status).toBe(200)
    expect(await apexNs()).toEqual(['900 ns1.secondary.example', '900 ns2.secondary.example'])
  })

  it('answers a signed SOA query (a secondary checking the serial), signed', async () => {
    const zone = await zoneWithTransfers()
    const [reply] = await messagesOf(await relay((await signed(zone.name, 'SOA')).message))
    const { unsigned, tsig } = splitTsig(reply!)
    expect(tsig?.error).toBe(0)
    expect(decodeMessage(unsigned).answer[0]!.typeCode).toBe(6)
  })

  it('refuses, signed, a signed query for anything but the zone SOA (it never claims no data)', async () => {
    const zone = await zoneWithTransfers()
    for (const [name, type] of [
      [zone.name, 'A'],
      [zone.name, 'NS'],
      [`www.${zone.name}`, 'SOA'],
    ] as const) {
      const query = encodeQuery(name, type, { id: 5, rd: false })
      const [reply] = await messagesOf(
        await relay((await signMessage(query, KEY, { time: now() })).message)
      )
      expect(rcode(reply!)).toBe(5)
      // A name that is no zone's is refused before any key is looked up: unsigned.
      if (name === zone.name) expect(splitTsig(reply!).tsig?.error).toBe(0)
      expect(decodeMessage(splitTsig(reply!).unsigned).authority).toEqual([])
    }
  })

  it('answers NOTIMP to a signed message of another opcode (the relay serves only queries)', async () => {
    const zone = await zoneWithTransfers()
    const soa = { name: zone.name, type: 6, ttl: 60, rdata: `ns. host. 1 2 3 4 5` }
    const notify = await signMessage(notifyMessage(9, soa), KEY, { time: now() })
    const [reply] = await messagesOf(await relay(notify.message))
    expect(rcode(reply!)).toBe(4)
    expect(splitTsig(reply!).tsig?.error).toBe(0)
  })

  it('refuses bad HTTP input with a clear 4xx, never a DNS answer or a 500', async () => {
    const zone = await zoneWithTransfers()
    const query = (await signed(zone.name, 'AXFR')).message
    const noClient = await relay(query, '')
    expect(noClient.status).toBe(400)
    expect(((await noClient.json()) as any).errors[0].code).toBe(6003)
    const json = await relay(query, '192.0.2.10', { 'content-type': 'application/json' })
    expect(json.status).toBe(400)
    const short = await relay(new Uint8Array(3))
    expect(short.status).toBe(400)
    expect(((await short.json()) as any).errors[0].message).toMatch(/12 to 65535 octets/)
  })

  it('needs a token with Zone Transfer Relay', async () => {
    const made = await api('POST', `/accounts/${DEFAULT_ACCOUNT}/tokens`, {
      name: 'dns-read-only',
      policies: [
        {
          effect: 'allow',
          permission_groups: [{ name: 'DNS Read' }],
          resources: { [`com.cloudflare.api.account.${DEFAULT_ACCOUNT}`]: '*' },
        },
      ],
    })
    const res = await relay(encodeQuery('x.example', 'AXFR', { id: 1 }), '192.0.2.1', {
      authorization: `Bearer ${made.body.result.value}`,
    })
    expect(res.status).toBe(403)
  })
})

describe('force_notify', () => {
  it('is a 400 naming the cause when outgoing transfers are not configured or disabled', async () => {
    const plain = await createZone('notify-none')
    const none = await api('POST', `/zones/${plain.id}/secondary_dns/outgoing/force_notify`)
    expectError(none, 400, 1004)
    expect(none.body.errors[0]!.message).toMatch(/no outgoing zone transfers/)
    const disabled = await zoneWithTransfers({ enabled: false })
    const off = await api('POST', `/zones/${disabled.id}/secondary_dns/outgoing/force_notify`)
    expectError(off, 400, 1004)
    expect(off.body.errors[0]!.message).toMatch(/disabled/)
  })

  it('answers "OK" when outgoing transfers are enabled', async () => {
    const zone = await zoneWithTransfers({ peer: { ip: null } })
    const res = await api('POST', `/zones/${zone.id}/secondary_dns/outgoing/force_notify`)
    expect(res.status).toBe(200)
    expect(res.body.result).toBe('OK')
  })
})
