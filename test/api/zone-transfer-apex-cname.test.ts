/**
 * A CNAME at the zone's apex (Cloudflare's CNAME flattening) is never sent to a secondary: an AXFR
 * leaves it out, and so does an IXFR difference that adds or deletes it (a difference left with
 * nothing is still one, its two SOAs alone). See workers/api/src/transfers/apex-cname.ts.
 */
import { decodeMessage, type MessageRR } from '../../packages/dns-wire/src/index.ts'
import { TsigStreamVerifier } from '../../packages/zone-transfer/src/index.ts'
import { describe, expect, it } from 'vitest'
import { api } from './helpers.ts'
import {
  KEY,
  messagesOf,
  now,
  relay,
  serialOf,
  signed,
  zoneWithTransfers,
} from './transfer-relay.ts'

/** The answer records of a signed transfer (AXFR, or IXFR from serial `from`), verified. */
async function transferred(zone: string, from?: number): Promise<MessageRR[]> {
  const request =
    from === undefined
      ? await signed(zone, 'AXFR')
      : await signed(zone, 'IXFR', KEY, `${zone} ${from}`)
  const verifier = new TsigStreamVerifier(KEY, request.mac, now)
  const rrs: MessageRR[] = []
  for (const m of await messagesOf(await relay(request.message)))
    rrs.push(...decodeMessage(await verifier.next(m)).answer)
  verifier.finish()
  return rrs
}

/** A record as `owner-label TYPE data` (`@` for the apex), a SOA as `SOA serial`. */
const lineOf =
  (zone: string) =>
  (rr: MessageRR): string => {
    if (rr.type === 'SOA') return `SOA ${rr.data.split(' ')[2]}`
    const name = rr.name.toLowerCase().replace(/\.$/, '')
    const owner = name === zone ? '@' : name.slice(0, -zone.length - 1)
    return `${owner} ${rr.type} ${rr.data.toLowerCase()}`
  }

async function add(zoneId: string, type: string, name: string, content: string) {
  const res = await api('POST', `/zones/${zoneId}/dns_records`, {
    type,
    name,
    content,
    ttl: 300,
  })
  expect(res.status, JSON.stringify(res.body)).toBe(200)
  return res.body.result as { id: string }
}

describe('a CNAME at the zone apex in outgoing transfers', () => {
  it('is left out of an AXFR; the apex SOA and NS and CNAMEs below the apex are sent', async () => {
    const zone = await zoneWithTransfers()
    await add(zone.id, 'CNAME', zone.name, 'target.example.net')
    await add(zone.id, 'CNAME', `alias.${zone.name}`, 'target.example.net')
    const lines = (await transferred(zone.name)).map(lineOf(zone.name))
    expect(lines.filter((l) => l.startsWith('@ NS')).length).toBeGreaterThan(0)
    expect(lines).toContain('alias CNAME target.example.net.')
    expect(lines.filter((l) => l.startsWith('@ CNAME'))).toEqual([])
    expect(lines[0]).toBe(lines[lines.length - 1])
  })

  it('is left out of an IXFR difference that adds it or deletes it, even when nothing else is left', async () => {
    const zone = await zoneWithTransfers()
    const s0 = await serialOf(zone.id)
    const apex = await add(zone.id, 'CNAME', zone.name, 'target.example.net')
    await add(zone.id, 'A', `a.${zone.name}`, '192.0.2.1')
    const s1 = await serialOf(zone.id)
    expect((await transferred(zone.name, s0)).map(lineOf(zone.name))).toEqual([
      `SOA ${s1}`,
      `SOA ${s0}`,
      `SOA ${s1}`,
      'a A 192.0.2.1',
      `SOA ${s1}`,
    ])
    // A change of the apex CNAME alone: a difference of its two SOAs only.
    expect(
      (
        await api('PATCH', `/zones/${zone.id}/dns_records/${apex.id}`, {
          content: 'other.example.net',
        })
      ).status
    ).toBe(200)
    const s2 = await serialOf(zone.id)
    expect((await transferred(zone.name, s1)).map(lineOf(zone.name))).toEqual([
      `SOA ${s2}`,
      `SOA ${s1}`,
      `SOA ${s2}`,
      `SOA ${s2}`,
    ])
    expect((await api('DELETE', `/zones/${zone.id}/dns_records/${apex.id}`)).status).toBe(200)
    const s3 = await serialOf(zone.id)
    expect((await transferred(zone.name, s2)).map(lineOf(zone.name))).toEqual([
      `SOA ${s3}`,
      `SOA ${s2}`,
      `SOA ${s3}`,
      `SOA ${s3}`,
    ])
  })
})
