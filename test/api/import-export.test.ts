/**
 * Zone-file import and export: round trip over every type and directive, atomic failures that
 * name their line, $INCLUDE refused, both multipart forms, duplicates, proxied and limits.
 */
import { describe, expect, it } from 'vitest'
import { snapshotZone } from './db-snapshot.ts'
import { api, createZone, DEFAULT_ACCOUNT, DEV_TOKEN, expectError } from './helpers.ts'
import {
  comparable,
  EVERY_TYPE_PARSED,
  EVERY_TYPE_RECORDS,
  EVERY_TYPE_TYPES,
  everyTypeZone,
} from './import-export-fixture.ts'
import { allRecords, exportZone, importZone } from './import-export-helpers.ts'
import { exports } from 'cloudflare:workers'

const SYNTAX = 81069

describe('zone-file round trip', () => {
  it('imports every type and directive, exports, and re-imports to the same records', async () => {
    const z = await createZone('rt')
    const first = await importZone(z.id, everyTypeZone(z.name))
    expect(first.status, JSON.stringify(first.body)).toBe(200)
    expect(first.body.result).toMatchObject({
      recs_added: EVERY_TYPE_RECORDS,
      total_records_parsed: EVERY_TYPE_PARSED,
    })
    expect(Number(first.headers.get('x-edgedns-change-seq'))).toBeGreaterThan(1)
    const before = await allRecords(z.id)
    expect(before).toHaveLength(EVERY_TYPE_RECORDS)
    expect([...new Set(before.map((r) => r.type))].sort()).toEqual(EVERY_TYPE_TYPES)

    const byName = (n: string) => before.filter((r) => r.name === n)
    expect(byName(z.name).find((r) => r.type === 'A')).toMatchObject({
      proxied: true,
      ttl: 1,
      comment: 'apex web',
      tags: ['env:prod', 'team:dns, infra'],
    })
    expect(byName(`www.${z.name}`).find((r) => r.type === 'AAAA')).toMatchObject({
      content: '2001:db8::1',
      proxied: false,
      ttl: 3600,
    })
    expect(byName(`www.${z.name}`).find((r) => r.type === 'A')).toMatchObject({ ttl: 600 })
    expect(byName(`alias.${z.name}`)[0]).toMatchObject({ type: 'CNAME', content: `www.${z.name}` })
    expect(byName(`flat.${z.name}`)[0]).toMatchObject({
      settings: { flatten_cname: true },
      comment: 'flattened',
    })
    expect(byName(`txt.${z.name}`)[0]).toMatchObject({
      content: '"first part; not a comment" "second \\"quoted\\" part" "tab\\009and\\\\backslash"',
      tags: ['kind:text'],
    })
    expect(byName(`bare.${z.name}`)[0]).toMatchObject({ content: '"hello" "world"', ttl: 7200 })
    expect(byName(`_sip._tcp.${z.name}`)[0]).toMatchObject({
      type: 'SRV',
      priority: 20,
      data: { priority: 20, weight: 0, port: 5061, target: 'sip.example.net' },
    })
    expect(byName(`host3.gen.${z.name}`)[0]).toMatchObject({
      type: 'A',
      content: '198.51.100.3',
      ttl: 120,
    })
    expect(byName(`alias12.gen.${z.name}`)[0]).toMatchObject({
      type: 'CNAME',
      content: `host2.gen.${z.name}`,
    })
    expect(byName(`abs.${z.name}`)[0]).toMatchObject({
      content: '203.0.113.7',
      ttl: 120,
      comment: 'absolute owner',
    })
    expect(byName(`late.${z.name}`)[0]).toMatchObject({ ttl: 900 })
    expect(
      byName(z.name)
        .filter((r) => r.type === 'NS')
        .map((r) => r.content)
    ).toEqual(['ns1.edgedns.dev', 'ns3.example.net'])

    const exported = await exportZone(z.id)
    expect(exported.status).toBe(200)
    expect(exported.type).toMatch(/^text\/plain/)
    const lines = exported.text.split('\n')
    expect(lines.find((l) => l.startsWith('$ORIGIN'))).toBe(`$ORIGIN ${z.name}.`)
    expect(lines.find((l) => /\tSOA\t/.test(l))).toMatch(/\tSOA\tns1\.edgedns\.dev\. /)
    // The zone's apex NS set is the stored one: no default name server is added.
    expect(lines.filter((l) => l.startsWith(`${z.name}.\t`) && l.includes('\tNS\t'))).toEqual([
      `${z.name}.\t3600\tIN\tNS\tns1.edgedns.dev.`,
      `${z.name}.\t3600\tIN\tNS\tns3.example.net.`,
    ])
    expect(exported.text).toContain(
      `${z.name}.\t300\tIN\tA\t192.0.2.1 ; apex web cf_tags=env:prod,team:"dns, infra",cf-proxied:true`
    )
    expect(exported.text).toContain(
      `flat.${z.name}.\t3600\tIN\tCNAME\twww.example.net. ; flattened cf_tags=cf-proxied:false,cf-flatten-cname`
    )

    // Re-import into a fresh zone of the same name: the same record set.
    expect((await api('DELETE', `/zones/${z.id}`)).status).toBe(200)
    const again = await api('POST', '/zones', { name: z.name, account: { id: DEFAULT_ACCOUNT } })
    const z2 = again.body.result.id as string
    const second = await importZone(z2, exported.text)
    expect(second.status, JSON.stringify(second.body)).toBe(200)
    expect(second.body.result.recs_added).toBe(EVERY_TYPE_RECORDS)
    const after = await allRecords(z2)
    expect(after.map(comparable).sort()).toEqual(before.map(comparable).sort())

    // And a second export of the new zone lists the same records (header and serial aside).
    const body = (t: string) =>
      t.split('\n').filter((l) => !l.startsWith(';') && !/\tSOA\t/.test(l))
    expect(body((await exportZone(z2)).text)).toEqual(body(exported.text))
  })

  it('exports an empty zone as SOA and NS only', async () => {
    const z = await createZone('empty')
    const { text } = await exportZone(z.id)
    const records = text
      .split('\n')
      .filter((l) => l !== '' && !l.startsWith(';') && !l.startsWith('$'))
    expect(records.map((l) => l.split('\t')[3])).toEqual(['SOA', 'NS', 'NS'])
  })
})

describe('the apex NS set in zone files', () => {
  const apexNsLines = (text: string, zone: string) =>
    text.split('\n').filter((l) => l.startsWith(`${zone}.\t`) && l.includes('\tNS\t'))

  it('skips a file apex NS set that is the zone own name servers, and exports them back', async () => {
    const z = await createZone('own-ns')
    const own = (await api('GET', `/zones/${z.id}`)).body.result.name_servers as string[]
    const file = own.map((ns) => `@ 86400 IN NS ${ns.toUpperCase()}.`).join('\n')
    const res = await importZone(z.id, `${file}\nwww 300 IN A 192.0.2.1\n`)
    expect(res.body.result).toMatchObject({ recs_added: 1, total_records_parsed: own.length + 1 })
    expect((await allRecords(z.id)).map((r) => r.type)).toEqual(['A'])
    expect(apexNsLines((await exportZone(z.id)).text, z.name)).toEqual(
      own.map((ns) => `${z.name}.\t86400\tIN\tNS\t${ns}.`)
    )
  })

  it('exports the vanity name servers when set, and stored apex NS records instead when any', async () => {
    const z = await createZone('vanity-ns')
    const vanity = [`ns1.${z.name}`, `ns2.${z.name}`]
    expect((await api('PATCH', `/zones/${z.id}`, { vanity_name_servers: vanity })).status).toBe(200)
    expect(apexNsLines((await exportZone(z.id)).text, z.name)).toEqual(
      vanity.map((ns) => `${z.name}.\t86400\tIN\tNS\t${ns}.`)
    )
    const stored = (content: string, ttl: number) => ({ type: 'NS', name: z.name, content, ttl })
    for (const ns of [stored('ns1.other.example', 3600), stored('ns2.other.example', 600)])
      expect((await api('POST', `/zones/${z.id}/dns_records`, ns)).status).toBe(200)
    // One TTL for the set, its smallest, as it is served.
    expect(apexNsLines((await exportZone(z.id)).text, z.name)).toEqual([
      `${z.name}.\t600\tIN\tNS\tns1.other.example.`,
      `${z.name}.\t600\tIN\tNS\tns2.other.example.`,
    ])
  })
})

describe('atomic failures name their line', () => {
  async function seeded(): Promise<{ id: string; name: string; snap: string }> {
    const z = await createZone('fail')
    await api('POST', `/zones/${z.id}/dns_records`, {
      type: 'A',
      name: 'keep',
      content: '192.0.2.1',
    })
    return { ...z, snap: await snapshotZone(z.id) }
  }

  it('a syntax error at line 4 reports line 4 and column, and changes nothing', async () => {
    const z = await seeded()
    const text = [
      '$TTL 300',
      'a A 192.0.2.10',
      'b A 192.0.2.11',
      'c 12x A 192.0.2.12',
      'd A 192.0.2.13',
    ].join('\n')
    const res = await importZone(z.id, text)
    expectError(res, 400, SYNTAX)
    expect(res.body.errors[0]!.message).toBe(
      'Zone file syntax error at line 4, column 3: bad TTL "12x"'
    )
    expect(await snapshotZone(z.id)).toBe(z.snap)
  })

  it('an unbalanced parenthesis is reported where it opens', async () => {
    const z = await seeded()
    const res = await importZone(z.id, 'a A 192.0.2.10\ntxt TXT ( "x"\nb A 192.0.2.11\n')
    expectError(res, 400, SYNTAX)
    expect(res.body.errors[0]!.message).toMatch(/line 2, column 9: unbalanced parenthesis/)
    expect(await snapshotZone(z.id)).toBe(z.snap)
  })

  it('refuses $INCLUDE', async () => {
    const z = await seeded()
    const res = await importZone(z.id, 'a A 192.0.2.10\n$INCLUDE /etc/passwd\n')
    expectError(res, 400, SYNTAX)
    expect(res.body.errors[0]!.message).toContain(
      'line 2, column 1: $INCLUDE directive not allowed'
    )
    expect(await snapshotZone(z.id)).toBe(z.snap)
  })

  it("invalid content names the line with the type's own code", async () => {
    const z = await seeded()
    const res = await importZone(z.id, '$TTL 300\na A 192.0.2.10\nbad A 300.1.1.1\n')
    expectError(res, 400, 9005)
    expect(res.body.errors[0]!.message).toMatch(
      /^line 3: Content for A record must be a valid IPv4 address/
    )
    expect(await snapshotZone(z.id)).toBe(z.snap)
  })

  it('a conflict found by the batch engine names the line too', async () => {
    const z = await seeded()
    const res = await importZone(
      z.id,
      '$TTL 300\nnew A 192.0.2.10\nkeep CNAME elsewhere.example.net.\n'
    )
    expectError(res, 400, 81053)
    expect(res.body.errors[0]!.message).toMatch(/^line 3: /)
    expect(await snapshotZone(z.id)).toBe(z.snap)
  })

  it('refuses names outside the zone and unsupported types', async () => {
    const z = await seeded()
    const out = await importZone(z.id, '$TTL 300\nother.example.org. A 192.0.2.10\n')
    expectError(out, 400, 81070)
    expect(out.body.errors[0]!.message).toBe(
      `line 2: other.example.org is outside the zone ${z.name}`
    )
    const hinfo = await importZone(z.id, '$TTL 300\nh HINFO "PC" "Linux"\n')
    expectError(hinfo, 400, 81070)
    expect(hinfo.body.errors[0]!.message).toBe('line 2: record type HINFO is not supported')
    expect(await snapshotZone(z.id)).toBe(z.snap)
  })
})

describe('import form and semantics', () => {
  it('takes the file as a file part or as a plain text field', async () => {
    for (const as of ['file', 'field'] as const) {
      const z = await createZone(as)
      const res = await importZone(z.id, '$TTL 300\nwww A 192.0.2.1\n', { as })
      expect(res.status).toBe(200)
      expect(res.body.result).toMatchObject({ recs_added: 1, total_records_parsed: 1 })
    }
  })

  it('refuses other content types with 415 and a missing file with 400', async () => {
    const z = await createZone('ct')
    const json = await api('POST', `/zones/${z.id}/dns_records/import`, { file: 'www A 192.0.2.1' })
    expectError(json, 415, 81068)
    expect(json.body.errors[0]!.message).toContain('multipart/form-data')
    const form = new FormData()
    form.append('proxied', 'true')
    const res = await (exports as any).default.fetch(
      `http://localhost/client/v4/zones/${z.id}/dns_records/import`,
      {
        method: 'POST',
        headers: { authorization: `Bearer ${DEV_TOKEN}` },
        body: form,
      }
    )
    expect(res.status).toBe(400)
    expect((await res.json()).errors[0].code).toBe(81068)
  })

  it('proxied=true proxies A/AAAA/CNAME only; cf-proxied tags override it', async () => {
    const z = await createZone('px')
    const text =
      '$TTL 300\na A 192.0.2.1\nb A 192.0.2.2 ; cf_tags=cf-proxied:false\nt TXT "x"\nc CNAME a\n'
    const res = await importZone(z.id, text, { proxied: 'true' })
    expect(res.status, JSON.stringify(res.body)).toBe(200)
    const recs = await allRecords(z.id)
    const get = (n: string) => recs.find((r) => r.name === `${n}.${z.name}`)
    expect([get('a').proxied, get('b').proxied, get('t').proxied, get('c').proxied]).toEqual([
      true,
      false,
      false,
      true,
    ])
    expect(get('a').ttl).toBe(1)
    expect(get('b').ttl).toBe(300)
  })

  it('skips records that already exist identically, and repeats in the file', async () => {
    const z = await createZone('dup')
    const text = '$TTL 300\na A 192.0.2.1\na A 192.0.2.1\nb A 192.0.2.2\n'
    const first = await importZone(z.id, text)
    expect(first.body.result).toMatchObject({ recs_added: 2, total_records_parsed: 3 })
    const seq = first.headers.get('x-edgedns-change-seq')
    const second = await importZone(z.id, text + 'c A 192.0.2.3\n')
    expect(second.body.result).toMatchObject({
      recs_added: 1,
      recs_added_by_type: { A: 1 },
      total_records_parsed: 4,
    })
    expect((second.body as any).messages.map((m: any) => m.message)).toEqual([
      `line 3: skipped, A a.${z.name} repeats an earlier line`,
      'line 2: skipped, an identical A record already exists',
      'line 4: skipped, an identical A record already exists',
    ])
    expect(Number(second.headers.get('x-edgedns-change-seq'))).toBe(Number(seq) + 1)
    expect(await allRecords(z.id)).toHaveLength(3)
  })

  it('clamps TTLs to 60..86400 and keeps TTL 1 as automatic', async () => {
    const z = await createZone('ttl')
    await importZone(z.id, 'a 30 A 192.0.2.1\nb 172800 A 192.0.2.2\nc 1 A 192.0.2.3\n')
    const ttl = Object.fromEntries(
      (await allRecords(z.id)).map((r) => [r.name.split('.')[0], r.ttl])
    )
    expect(ttl).toEqual({ a: 60, b: 86400, c: 1 })
  })

  it('obeys the account batch limit when one is set: 81063 and nothing changes', async () => {
    const acct = (await api('POST', '/accounts', { name: 'small-import' })).body.result
    await api('PUT', `/accounts/${acct.id}`, { settings: { max_dns_batch_changes: 3 } })
    const zone = (
      await api('POST', '/zones', {
        name: `lim-${Date.now().toString(36)}.example`,
        account: { id: acct.id },
      })
    ).body.result
    const snap = await snapshotZone(zone.id)
    const res = await importZone(zone.id, '$TTL 300\n$GENERATE 1-4 h$ A 192.0.2.$\n')
    expectError(res, 400, 81063)
    expect(await snapshotZone(zone.id)).toBe(snap)
    const okRes = await importZone(zone.id, '$TTL 300\n$GENERATE 1-3 h$ A 192.0.2.$\n')
    expect(okRes.body.result.recs_added).toBe(3)
    // Far past the limit, the parser stops reading: the message states the account's limit.
    const far = await importZone(zone.id, '$TTL 300\n$GENERATE 1-5000 f$ A 192.0.2.1\n')
    expectError(far, 400, 81063)
    expect(far.body.errors[0]!.message).toBe(
      'The zone file has more records than this account may import at once: the limit for this account is 3 records per import (reading stopped at line 2).'
    )
  })

  it('answers 413 for a file over the import size cap', async () => {
    const z = await createZone('big')
    const line = 'x'.repeat(1023) + '\n'
    const res = await importZone(z.id, line.repeat(33 * 1024))
    expectError(res, 413, 10413)
  })
})
