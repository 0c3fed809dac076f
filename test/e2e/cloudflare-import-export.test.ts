/**
 * The official `cloudflare` SDK's dns.records.import and .export work unchanged against the stack:
 * `file` as a plain string (a form field) and as a File (a file part), `proxied` as a string.
 */
import Cloudflare, { toFile } from 'cloudflare'
import { beforeAll, describe, expect, inject, it } from 'vitest'

const cf = new Cloudflare({
  apiToken: inject('stackToken'),
  baseURL: `${inject('stackBase')}/client/v4`,
  maxRetries: 0,
})

async function newZone(prefix: string): Promise<{ zone_id: string; name: string }> {
  const accounts = await cf.accounts.list()
  const zone = await cf.zones.create({
    account: { id: accounts.result[0]!.id },
    name: `${prefix}-${Date.now().toString(36)}.example`,
  })
  return { zone_id: zone.id, name: zone.name }
}

let accountsReady = false
beforeAll(async () => {
  accountsReady = (await cf.accounts.list()).result.length > 0
})

describe('official cloudflare SDK: import and export', () => {
  it('imports a zone file given as a string, with proxied "true"', async () => {
    expect(accountsReady).toBe(true)
    const { zone_id, name } = await newZone('cf-imp')
    const file = `$TTL 3600\nwww IN A 192.0.2.1\napi IN AAAA 2001:db8::1 ; api cf_tags=env:prod\n@ IN MX 10 mail.${name}.\nmail IN A 192.0.2.2 ; cf_tags=cf-proxied:false\n@ TXT "hello world"\n`
    const res = await cf.dns.records.import({ zone_id, file, proxied: 'true' } as any)
    expect(res).toMatchObject({ recs_added: 5, total_records_parsed: 5 })
    const recs: any[] = []
    for await (const r of cf.dns.records.list({ zone_id })) recs.push(r)
    const by = (n: string, t: string) => recs.find((r) => r.name === n && r.type === t)
    expect(by(`www.${name}`, 'A')).toMatchObject({ proxied: true, ttl: 1 })
    expect(by(`api.${name}`, 'AAAA')).toMatchObject({
      proxied: true,
      comment: 'api',
      tags: ['env:prod'],
    })
    expect(by(`mail.${name}`, 'A')).toMatchObject({ proxied: false, ttl: 3600 })
    expect(by(name, 'MX')).toMatchObject({ content: `mail.${name}`, priority: 10 })
  })

  it('imports a zone file given as a File (file part)', async () => {
    const { zone_id } = await newZone('cf-file')
    const file = await toFile(Buffer.from('$TTL 300\na A 192.0.2.10\nb CNAME a\n'), 'zone.txt', {
      type: 'text/plain',
    })
    const res = await cf.dns.records.import({ zone_id, file: file as any })
    expect(res).toMatchObject({ recs_added: 2, total_records_parsed: 2 })
  })

  it('exports text/plain BIND that the SDK returns as a string and that re-imports', async () => {
    const { zone_id, name } = await newZone('cf-exp')
    await cf.dns.records.create({
      zone_id,
      type: 'A',
      name: `www.${name}`,
      content: '192.0.2.5',
      ttl: 1,
      proxied: true,
      comment: 'web',
      tags: ['team:"a,b"'],
    } as any)
    await cf.dns.records.create({ zone_id, type: 'TXT', name, content: '"v=spf1 -all"', ttl: 600 })
    const text = await cf.dns.records.export({ zone_id })
    expect(typeof text).toBe('string')
    expect(text).toContain(`$ORIGIN ${name}.`)
    expect(text).toMatch(
      new RegExp(
        `www\\.${name.replace(/\./g, '\\.')}\\.\\t300\\tIN\\tA\\t192\\.0\\.2\\.5 ; web cf_tags=.*cf-proxied:true`
      )
    )
    expect(text).toContain(`${name}.\t600\tIN\tTXT\t"v=spf1 -all"`)

    // Re-importing the export into the same zone adds nothing: every record already exists.
    const again = await cf.dns.records.import({ zone_id, file: text })
    expect(again).toMatchObject({ recs_added: 0 })
  })

  it('surfaces a syntax error as a 400 BadRequestError naming the line', async () => {
    const { zone_id } = await newZone('cf-bad')
    const err = await cf.dns.records
      .import({ zone_id, file: 'a A 192.0.2.1\n$INCLUDE other.zone\n' })
      .catch((e) => e)
    expect(err).toBeInstanceOf(Cloudflare.BadRequestError)
    expect(err.errors[0].message).toContain('line 2, column 1: $INCLUDE directive not allowed')
  })
})
