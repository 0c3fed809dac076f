/**
 * Zone-file import read as BIND reads the same file: escapes in owner and target names,
 * `key="value"` outside SVCB/HTTPS, a DS at the apex refused (by the records API too), LOC
 * sizes stored as the wire holds them, and RFC 3597 generic rdata of known types.
 */
import { describe, expect, it } from 'vitest'
import { snapshotZone } from './db-snapshot.ts'
import { api, createZone, expectError } from './helpers.ts'
import { allRecords, exportZone, importZone } from './import-export-helpers.ts'

const NAME_INVALID = 9000

describe('escapes in names', () => {
  it('decodes escapes of ordinary characters in owners and targets alike', async () => {
    const z = await createZone('esc')
    const text = [
      '$TTL 300',
      'o\\065wner CNAME t\\065rget',
      'm\\-x MX 10 m\\097il.example.net.',
    ].join('\n')
    const res = await importZone(z.id, text)
    expect(res.status).toBe(200)
    const got = (await allRecords(z.id))
      .filter((r) => r.type === 'CNAME' || r.type === 'MX')
      .map((r) => `${r.type} ${r.name} ${r.content}`)
      .sort()
    expect(got).toEqual([
      `CNAME oawner.${z.name} target.${z.name}`,
      `MX m-x.${z.name} mail.example.net`,
    ])
  })

  it('decodes them in an $ORIGIN that relative names take', async () => {
    const z = await createZone('esco')
    const [first, ...rest] = z.name.split('.')
    const origin = `\\${first!.charCodeAt(0).toString().padStart(3, '0')}${first!.slice(1)}`
    const text = `$TTL 300\n$ORIGIN ${[origin, ...rest].join('.')}.\nc CNAME t\n`
    expect((await importZone(z.id, text)).status).toBe(200)
    const [c] = (await allRecords(z.id)).filter((r) => r.type === 'CNAME')
    expect([c.name, c.content]).toEqual([`c.${z.name}`, `t.${z.name}`])
  })

  it('refuses an escaped dot in a target, naming the line and the label', async () => {
    const z = await createZone('escdot')
    const snap = await snapshotZone(z.id)
    for (const [line, code] of [
      ['c CNAME a\\.b.example.net.', 9007],
      ['m MX 10 a\\.b.example.net.', 9009],
      ['s SRV 1 2 3 a\\.b.example.net.', 9036],
    ] as const) {
      const res = await importZone(z.id, `$TTL 300\nok A 192.0.2.1\n${line}\n`)
      expectError(res, 400, code)
      expect(res.body.errors[0]!.message).toMatch(
        /^line 3: .*label "a\.b" contains a dot \(written \\\.\), which this API does not allow in names/i
      )
    }
    expect(await snapshotZone(z.id)).toBe(snap)
  })

  it('refuses an escaped dot in an owner the same way', async () => {
    const z = await createZone('escown')
    const res = await importZone(z.id, '$TTL 300\na\\.b A 192.0.2.1\n')
    expectError(res, 400, NAME_INVALID)
    expect(res.body.errors[0]!.message).toMatch(
      /^line 2: DNS name is invalid\. Label "a\.b" contains a dot \(written \\\.\)/
    )
  })
})

describe('key="value" outside SVCB/HTTPS', () => {
  it('imports TXT foo="bar baz" as BIND reads it, two strings, and HTTPS alpn="h2,h3" whole', async () => {
    const z = await createZone('kv')
    const text = '$TTL 300\nt9 TXT foo="bar baz"\nh HTTPS 1 . alpn="h2,h3" key65001="a b"\n'
    expect((await importZone(z.id, text)).status).toBe(200)
    const got = (await allRecords(z.id)).filter((r) => r.type === 'TXT' || r.type === 'HTTPS')
    expect(got.map((r) => [r.type, r.content]).sort()).toEqual([
      ['HTTPS', '1 . alpn="h2,h3" key65001="a b"'],
      ['TXT', '"foo=" "bar baz"'],
    ])
  })
})

describe('a DS record at the zone apex', () => {
  const DS = `2371 13 2 ${'ab'.repeat(32)}`
  const APEX =
    /DNS name is invalid\. A DS record cannot be at the zone apex: it belongs in the parent zone\./

  it('is refused by the records API, and at a delegation below it accepted', async () => {
    const z = await createZone('dsapex')
    const apex = await api('POST', `/zones/${z.id}/dns_records`, {
      type: 'DS',
      name: '@',
      content: DS,
    })
    expectError(apex, 400, NAME_INVALID)
    expect(apex.body.errors[0]!.message).toMatch(APEX)
    const sub = await api('POST', `/zones/${z.id}/dns_records`, {
      type: 'DS',
      name: 'sub',
      content: DS,
    })
    expect(sub.status).toBe(200)
  })

  it('is refused on import, naming the line', async () => {
    const z = await createZone('dsimport')
    const res = await importZone(z.id, `$TTL 300\nsub DS ${DS}\n@ DS ${DS}\n`)
    expectError(res, 400, NAME_INVALID)
    expect(res.body.errors[0]!.message).toMatch(new RegExp(`^line 3: ${APEX.source}`))
  })
})

describe('LOC size and precisions', () => {
  it('are stored, shown and exported as the wire holds them (12345m is 10000m)', async () => {
    const z = await createZone('loc')
    const res = await importZone(z.id, '$TTL 300\nl1 LOC 1 0 0 N 1 0 0 E 0m 12345m 333m 7m\n')
    expect(res.status).toBe(200)
    const want = '1 0 0.000 N 1 0 0.000 E 0.00m 10000.00m 300.00m 7.00m'
    const [loc] = (await allRecords(z.id)).filter((r) => r.type === 'LOC')
    expect(loc.content).toBe(want)
    expect((await exportZone(z.id)).text).toContain(`LOC\t${want}`)
  })
})

describe('RFC 3597 generic rdata', () => {
  it('imports TYPEnnn and \\# len hex of known types as BIND reads them', async () => {
    const z = await createZone('generic')
    const mx = '000a046d61696c076578616d706c65036e657400'
    const text = [
      '$TTL 300',
      'a TYPE1 \\# 4 C0000201',
      `m MX \\# ${mx.length / 2} ${mx}`,
      't TYPE16 "hello"',
      'e TXT \\# 6 0568656C6C6F',
    ].join('\n')
    const res = await importZone(z.id, text)
    expect(res.status).toBe(200)
    const got = (await allRecords(z.id))
      .filter((r) => r.type !== 'NS')
      .map((r) => `${r.type} ${r.name} ${r.priority ?? ''} ${r.content}`)
      .sort()
    expect(got).toEqual([
      `A a.${z.name}  192.0.2.1`,
      `MX m.${z.name} 10 mail.example.net`,
      `TXT e.${z.name}  hello`,
      `TXT t.${z.name}  hello`,
    ])
  })

  it('refuses generic rdata whose length or octets do not fit the type, naming the line', async () => {
    const z = await createZone('genbad')
    const snap = await snapshotZone(z.id)
    for (const [line, message] of [
      [
        'a A \\# 5 C0000201',
        /^line 3: Content for A record is invalid\. RFC 3597 rdata: generic length does not match data\.$/,
      ],
      [
        'a A \\# 3 C00002',
        /^line 3: Content for A record is invalid\. Its RFC 3597 octets are not valid A rdata\.$/,
      ],
    ] as const) {
      const res = await importZone(z.id, `$TTL 300\nok A 192.0.2.1\n${line}\n`)
      expect(res.status).toBe(400)
      expect(res.body.errors[0]!.message).toMatch(message)
    }
    expect(await snapshotZone(z.id)).toBe(snap)
  })
})
