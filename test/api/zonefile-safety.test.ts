/**
 * What the API stores always exports as a zone file its own import reads back: SvcParam values
 * with quotes and line breaks, comments with blanks or marker text, and the reserved tag names.
 */
import { env } from 'cloudflare:workers'
import { describe, expect, it } from 'vitest'
import { api, createZone, expectError } from './helpers.ts'
import { exportZone, importZone } from './import-export-helpers.ts'

async function roundTrip(records: Record<string, unknown>[]) {
  const z = await createZone()
  const created = await api('POST', `/zones/${z.id}/dns_records/batch`, { posts: records })
  expect(created.status, JSON.stringify(created.body.errors)).toBe(200)
  const exported = await exportZone(z.id)
  expect(exported.status).toBe(200)
  await api('DELETE', `/zones/${z.id}`)
  const again = await createZone()
  const text = exported.text.replaceAll(z.name, again.name)
  const imported = await importZone(again.id, text)
  expect(imported.status, `${JSON.stringify(imported.body.errors)}\n${text}`).toBe(200)
  const list = await api(
    'GET',
    `/zones/${again.id}/dns_records?per_page=100&type=${records[0]!.type}`
  )
  return { created: created.body.result.posts, back: list.body.result, text }
}

describe('stored records export to a zone file that imports back unchanged', () => {
  it('escapes SvcParam values: a quote and a parenthesis in dohpath, a line break in an opaque key', async () => {
    const { created, back, text } = await roundTrip([
      {
        type: 'HTTPS',
        name: 'svcq',
        data: { priority: 1, target: '.', value: 'dohpath=/q"(x{?dns}' },
      },
      {
        type: 'HTTPS',
        name: 'svcn',
        data: { priority: 1, target: '.', value: 'alpn=h2 key65000="a\nb"' },
      },
    ])
    expect(created.map((r: { content: string }) => r.content)).toEqual([
      '1 . dohpath="/q\\"(x{?dns}"',
      '1 . alpn="h2" key65000="a\\010b"',
    ])
    expect(text).toContain('HTTPS\t1 . dohpath="/q\\"(x{?dns}"\n')
    expect(back.map((r: { content: string }) => r.content).sort()).toEqual(
      created.map((r: { content: string }) => r.content).sort()
    )
  })

  it('refuses a dohpath that is no DoH URI template, or holds a line break, naming the field', async () => {
    const z = await createZone()
    const res = await api('POST', `/zones/${z.id}/dns_records`, {
      type: 'HTTPS',
      name: 'svc',
      data: { priority: 1, target: '.', value: 'dohpath="/q\n{?dns}"' },
    })
    expectError(res, 400, 9125)
    expect(res.body.errors[0]!.message).toMatch(/data\.value: "dohpath" must not contain control/)
    const issue = await api('POST', `/zones/${z.id}/dns_records`, {
      type: 'HTTPS',
      name: 'svcq',
      data: { priority: 1, target: '.', value: 'dohpath=/q"(x' },
    })
    expectError(issue, 400, 9125)
    expect(issue.body.errors[0]!.message).toMatch(/"dohpath" must contain the "dns" variable/)
  })

  it('trims comments and keeps marker text in them a comment', async () => {
    const { created, back } = await roundTrip([
      { type: 'TXT', name: 'c1', content: '"x"', comment: '  padded  ' },
      { type: 'TXT', name: 'c2', content: '"y"', comment: 'see cf_tags=a,b' },
    ])
    expect(created.map((r: { comment: string }) => r.comment)).toEqual([
      'padded',
      'see cf_tags=a,b',
    ])
    const comments = back.map((r: { comment: string; tags: string[] }) => [r.comment, r.tags])
    expect(comments.sort()).toEqual([
      ['padded', []],
      ['see cf_tags=a,b', []],
    ])
  })

  it('refuses the tag names a zone file reserves for proxy status and CNAME flattening', async () => {
    const z = await createZone()
    for (const tag of ['cf-proxied:true', 'CF-Flatten-CNAME']) {
      const res = await api('POST', `/zones/${z.id}/dns_records`, {
        type: 'TXT',
        name: 't',
        content: '"x"',
        tags: [tag],
      })
      expectError(res, 400, 9151)
      expect(res.body.errors[0]!.message).toMatch(/is reserved/)
    }
  })
})

describe('HTTPS rows stored by the earlier SvcParams parser export to a zone file that imports', () => {
  /** An HTTPS record whose stored value is then set to `legacy`, as the earlier parser wrote it. */
  async function legacyRow(zoneId: string, name: string, legacy: string): Promise<void> {
    const made = await api('POST', `/zones/${zoneId}/dns_records`, {
      type: 'HTTPS',
      name,
      data: { priority: 1, target: '.', value: 'alpn=h2' },
    })
    expect(made.status).toBe(200)
    await (env as any).DB.prepare('UPDATE dns_records SET data = ?2, content = ?3 WHERE id = ?1')
      .bind(
        made.body.result.id,
        JSON.stringify({ priority: 1, target: '.', value: legacy }),
        `1 . ${legacy}`
      )
      .run()
  }

  async function exportAndImport(z: { id: string; name: string }) {
    const exported = await exportZone(z.id)
    expect(exported.status).toBe(200)
    const again = await createZone('legacy-svcb-import')
    const text = exported.text.replaceAll(z.name, again.name)
    const imported = await importZone(again.id, text)
    expect(imported.status, `${JSON.stringify(imported.body.errors)}\n${text}`).toBe(200)
    const back = await api('GET', `/zones/${again.id}/dns_records?type=HTTPS`)
    return { text, back: back.body.result.map((r: { content: string }) => r.content).sort() }
  }

  it('writes a value with unescaped quotes in the escaped form it means', async () => {
    const z = await createZone('legacy-svcb')
    // The earlier parser wrote quoted values verbatim: a bare `"` inside stayed unescaped.
    await legacyRow(z.id, 'svcq', 'dohpath="/q"(x{?dns}"')
    await legacyRow(z.id, 'svck', 'alpn="h2" key65000="a"b c"')
    const { text, back } = await exportAndImport(z)
    expect(text).toContain('HTTPS\t1 . dohpath="/q\\"(x{?dns}"\n')
    expect(back).toEqual(['1 . alpn="h2" key65000="a\\"b c"', '1 . dohpath="/q\\"(x{?dns}"'])
  })

  it('writes a value invalid even as stored as a comment line saying it was skipped', async () => {
    const z = await createZone('legacy-svcb')
    // What the earlier parser stored for dohpath=/q"(x, which is no DoH URI template.
    await legacyRow(z.id, 'svcq', 'dohpath="/q"(x"')
    const { text, back } = await exportAndImport(z)
    expect(text).toMatch(
      /^; skipped: svcq\.\S+ 300 IN HTTPS: .*"dohpath" must contain the "dns" variable/m
    )
    expect(back).toEqual([])
  })
})

describe('an import that is one enormous line', () => {
  it('is refused at the line bound with a 400 naming the line, before the rest is read', async () => {
    const z = await createZone()
    const long = await importZone(z.id, `a A 192.0.2.1\nb TXT "${'x'.repeat(300_000)}"\n`)
    expectError(long, 400, 81069)
    expect(long.body.errors[0]!.message).toBe(
      'Zone file syntax error at line 2, column 1: a record is longer than 262144 characters (it starts here)'
    )
    const many = await importZone(z.id, `a TXT ${'"x" '.repeat(20_000)}\n`)
    expectError(many, 400, 81069)
    expect(many.body.errors[0]!.message).toMatch(
      /line 1, column 1: a record has more than 10000 tokens/
    )
  })
})
