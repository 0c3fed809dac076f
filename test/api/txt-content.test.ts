/**
 * TXT content round-trips exactly as sent, quoted or not: create, get, list and its content
 * filters, batch (and its no-op detection), export and import. On the wire, unquoted content is one
 * text split into 255-octet character-strings (spaces do not split it), as Cloudflare serves it.
 */
import { describe, expect, it } from 'vitest'
import { api, createZone, expectError } from './helpers.ts'
import { allRecords, exportZone, importZone } from './import-export-helpers.ts'
import { kvNode, settle } from '../../workers/api/src/builder/test/helpers.ts'
import { encodeQuery } from '../../packages/dns-wire/src/index.ts'
import { exports } from 'cloudflare:workers'

const LONG = `v=DKIM1; k=rsa; p=${'A'.repeat(280)} end`

/** Content as sent, and its presentation (zone file, KV, DoH JSON). */
const CASES: [label: string, content: string, presentation: string][] = [
  ['unquoted token', 'acme-v2-1033', '"acme-v2-1033"'],
  [
    'unquoted with spaces',
    'v=spf1 include:_spf.example.net ~all',
    '"v=spf1 include:_spf.example.net ~all"',
  ],
  ['quoted list', '"a" "b"', '"a" "b"'],
  ['quoted with an escaped quote', '"say \\"hi\\" twice" "x"', '"say \\"hi\\" twice" "x"'],
  ['unquoted with quotes inside', 'say "hi"', '"say \\"hi\\""'],
  ['long unquoted (over 255 octets)', LONG, `"${LONG.slice(0, 255)}" "${LONG.slice(255)}"`],
]

const q = (params: Record<string, string | number>): string =>
  new URLSearchParams(Object.entries(params).map(([k, v]) => [k, String(v)])).toString()

async function create(zoneId: string, name: string, content: string): Promise<any> {
  const res = await api('POST', `/zones/${zoneId}/dns_records`, { type: 'TXT', name, content })
  expect(res.status, JSON.stringify(res.body)).toBe(200)
  return res.body.result
}

describe('TXT content is returned as sent', () => {
  it('create, get and list return every form unchanged', async () => {
    const z = await createZone('txt')
    for (const [i, [label, content]] of CASES.entries()) {
      const rec = await create(z.id, `c${i}`, content)
      expect(rec.content, label).toBe(content)
      const got = await api('GET', `/zones/${z.id}/dns_records/${rec.id}`)
      expect(got.body.result.content, label).toBe(content)
    }
    const list = await api('GET', `/zones/${z.id}/dns_records?type=TXT&order=name`)
    expect(list.body.result.map((r: any) => r.content).sort()).toEqual(
      CASES.map(([, c]) => c).sort()
    )
  })

  it('quoted content that is not in canonical spacing is kept as sent too', async () => {
    const z = await createZone('txt')
    for (const content of ['"a"   "b"', '"a" bare', '"\\065\\066"']) {
      expect((await create(z.id, 'odd', content)).content).toBe(content)
    }
  })

  it('content= and content.exact= find every form by the content as sent', async () => {
    const z = await createZone('txt')
    for (const [label, content] of CASES) {
      const rec = await create(z.id, 't', content)
      for (const key of ['content', 'content.exact']) {
        const res = await api(
          'GET',
          `/zones/${z.id}/dns_records?${q({ type: 'TXT', name: `t.${z.name}`, [key]: content })}`
        )
        expect(
          res.body.result.map((r: any) => r.id),
          `${label} ${key}`
        ).toEqual([rec.id])
      }
    }
  })

  it('`acme` and `"acme"` are one RR: each is kept as sent, and the other form is 81058', async () => {
    const z = await createZone('txt')
    const plain = await create(z.id, 't', 'acme-v2-1033')
    expect(plain.content).toBe('acme-v2-1033')
    const dup = await api('POST', `/zones/${z.id}/dns_records`, {
      type: 'TXT',
      name: 't',
      content: '"acme-v2-1033"',
    })
    expect(dup.status).toBe(400)
    expect(dup.body.errors[0]?.code).toBe(81058)
    const quoted = await create(z.id, 'u', '"acme-v2-1033"')
    expect(quoted.content).toBe('"acme-v2-1033"')
    const dup2 = await api('POST', `/zones/${z.id}/dns_records`, {
      type: 'TXT',
      name: 'u',
      content: 'acme-v2-1033',
    })
    expect(dup2.body.errors[0]?.code).toBe(81058)
  })
})

describe('TXT content through batch', () => {
  it('posts, puts and patches keep content as sent; re-sending it is a no-op', async () => {
    const z = await createZone('txt')
    const posted = await api('POST', `/zones/${z.id}/dns_records/batch`, {
      posts: CASES.map(([, content], i) => ({ type: 'TXT', name: `b${i}`, content })),
    })
    expect(posted.status, JSON.stringify(posted.body)).toBe(200)
    const recs = posted.body.result.posts as any[]
    expect(recs.map((r) => r.content)).toEqual(CASES.map(([, c]) => c))

    const again = await api('POST', `/zones/${z.id}/dns_records/batch`, {
      patches: recs.map((r) => ({ id: r.id, content: r.content })),
      puts: recs.map((r) => ({ id: r.id, type: 'TXT', name: r.name, content: r.content })),
    })
    expect(again.status, JSON.stringify(again.body)).toBe(200)
    expect(again.headers.get('x-edgedns-committed-at')).toBeNull()
    for (const list of [again.body.result.patches, again.body.result.puts]) {
      expect(list.map((r: any) => r.content)).toEqual(CASES.map(([, c]) => c))
      expect(list.map((r: any) => r.modified_on)).toEqual(recs.map((r) => r.modified_on))
    }

    // the same strings in the other form is a change of content (returned as sent), not a conflict
    const requoted = await api('POST', `/zones/${z.id}/dns_records/batch`, {
      patches: [{ id: recs[0].id, content: '"acme-v2-1033"' }],
    })
    expect(requoted.status, JSON.stringify(requoted.body)).toBe(200)
    expect(requoted.body.result.patches[0].content).toBe('"acme-v2-1033"')
  })
})

describe('TXT content through export and import', () => {
  it('an import of the export reads back to the content the API stores', async () => {
    const z = await createZone('txt')
    const posted = await api('POST', `/zones/${z.id}/dns_records/batch`, {
      posts: [
        ...CASES.map(([, content], i) => ({ type: 'TXT', name: `r${i}`, content })),
        { type: 'TXT', name: 'lego', content: '"quoted-by-the-client"' },
      ],
    })
    expect(posted.status, JSON.stringify(posted.body)).toBe(200)
    const before = posted.body.result.posts as any[]
    const { text } = await exportZone(z.id)
    // the export writes each as RFC 1035 character-strings
    CASES.forEach(([label, , presentation], i) => {
      expect(text, label).toContain(`r${i}.${z.name}.\t300\tIN\tTXT\t${presentation}\n`)
    })
    const del = await api('POST', `/zones/${z.id}/dns_records/batch`, {
      deletes: before.map((r) => ({ id: r.id })),
    })
    expect(del.status).toBe(200)
    const imported = await importZone(z.id, text)
    expect(imported.status, JSON.stringify(imported.body)).toBe(200)
    const byName = new Map((await allRecords(z.id)).map((r) => [r.name, r.content]))
    CASES.forEach(([label, content], i) => {
      expect(byName.get(`r${i}.${z.name}`), label).toBe(content)
    })
    // One quoted string that unquoted content means exactly reads back in the unquoted form.
    expect(byName.get(`lego.${z.name}`)).toBe('quoted-by-the-client')
  })

  it('a zone file string list reads back as sent to the API, and an identical record is skipped', async () => {
    const z = await createZone('txt')
    await create(z.id, 'same', 'acme-v2-1033')
    const res = await importZone(
      z.id,
      [
        'one TXT "v=spf1 mx -all"',
        'two TXT "part one" "part two"',
        'bare TXT hello world',
        'same TXT "acme-v2-1033"',
        '',
      ].join('\n')
    )
    expect(res.status, JSON.stringify(res.body)).toBe(200)
    expect(res.body.result.recs_added).toBe(3)
    const byName = new Map((await allRecords(z.id)).map((r) => [r.name, r.content]))
    expect(byName.get(`one.${z.name}`)).toBe('v=spf1 mx -all')
    expect(byName.get(`two.${z.name}`)).toBe('"part one" "part two"')
    expect(byName.get(`bare.${z.name}`)).toBe('"hello" "world"')
    expect(byName.get(`same.${z.name}`)).toBe('acme-v2-1033')
  })
})

const hex = (b: Uint8Array | string): string =>
  [...(typeof b === 'string' ? new TextEncoder().encode(b) : b)]
    .map((x) => x.toString(16).padStart(2, '0'))
    .join('')

function base64url(bytes: Uint8Array): string {
  let s = ''
  for (const b of bytes) s += String.fromCharCode(b)
  return btoa(s).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '')
}

async function dohWire(name: string): Promise<string> {
  const res: Response = await (exports as any).default.fetch(
    `http://localhost/dns-query?dns=${base64url(encodeQuery(name, 'TXT'))}`,
    { headers: { accept: 'application/dns-message' } }
  )
  expect(res.status).toBe(200)
  return hex(new Uint8Array(await res.arrayBuffer()))
}

describe('TXT on the wire', () => {
  it('unquoted content is one character-string, spaces included; over 255 octets it is split', async () => {
    const z = await createZone('txtwire')
    const spf = 'v=spf1 mx -all'
    expect((await create(z.id, 'spf', spf)).content).toBe(spf)
    expect((await create(z.id, 'long', LONG)).content).toBe(LONG)
    expect((await create(z.id, 'list', '"a b" "c"')).content).toBe('"a b" "c"')
    await settle(z.id)

    // the KV value the builder writes holds the presentation of those character-strings
    expect((await kvNode(z.name, `spf.${z.name}`))?.sets.TXT?.rdata).toEqual([`"${spf}"`])
    expect((await kvNode(z.name, `long.${z.name}`))?.sets.TXT?.rdata).toEqual([
      `"${LONG.slice(0, 255)}" "${LONG.slice(255)}"`,
    ])

    // RDLENGTH 15, then ONE string of 14 octets: "v=spf1 mx -all"
    expect(await dohWire(`spf.${z.name}`)).toContain(`000f0e${hex(spf)}`)
    // 255 octets, then the rest (LONG is ASCII)
    const rest = LONG.length - 255
    const rdlength = 1 + 255 + 1 + rest
    expect(await dohWire(`long.${z.name}`)).toContain(
      hex(Uint8Array.of(rdlength >> 8, rdlength & 0xff, 255)) +
        hex(LONG.slice(0, 255)) +
        hex(Uint8Array.of(rest)) +
        hex(LONG.slice(255))
    )
    // quoted content is RFC 1035 character-strings: "a b" and "c"
    expect(await dohWire(`list.${z.name}`)).toContain(`0006036120620163`)
  })
})

describe('text holding a lone UTF-16 surrogate', () => {
  // A lone surrogate has no UTF-8 form: D1 would keep U+FFFD while the answer showed the text as
  // sent, so GET, the content filters, the wire and the export would disagree with the create.
  // Messages are compared as JSON text: a lone surrogate in an assertion breaks the pool's reporter.
  const LONE = 'acme-\ud800-token'

  it('is refused in TXT content, and nothing is stored', async () => {
    const z = await createZone('surrogate')
    const created = await api('POST', `/zones/${z.id}/dns_records`, {
      type: 'TXT',
      name: '_acme-challenge',
      content: LONE,
    })
    expectError(created, 400, 9135)
    expect(created.body.errors[0]!.message).toContain('lone surrogate')
    const listed = await api('GET', `/zones/${z.id}/dns_records?type=TXT`)
    expect(listed.body.result).toEqual([])
  })

  it('is refused in a comment (9150) and in a tag (9151)', async () => {
    const z = await createZone('surrogate-meta')
    const base = { type: 'TXT', name: 'meta', content: 'ok' }
    const comment = await api('POST', `/zones/${z.id}/dns_records`, { ...base, comment: LONE })
    expectError(comment, 400, 9150)
    expect(comment.body.errors[0]!.message).toContain('lone surrogate')
    const tag = await api('POST', `/zones/${z.id}/dns_records`, { ...base, tags: [`k:${LONE}`] })
    expectError(tag, 400, 9151)
    expect(tag.body.errors[0]!.message).toContain('lone surrogate')
    const name = await api('POST', `/zones/${z.id}/dns_records`, { ...base, tags: ['\udc00'] })
    expectError(name, 400, 9151)
  })

  it('a well-formed pair outside the BMP is kept as sent', async () => {
    const z = await createZone('surrogate-pair')
    const content = 'acme-\ud83d\ude00-token'
    const created = await api('POST', `/zones/${z.id}/dns_records`, {
      type: 'TXT',
      name: 'pair',
      content,
      comment: 'smile \ud83d\ude00',
      tags: ['mood:\ud83d\ude00'],
    })
    expect(created.status, JSON.stringify(created.body.errors)).toBe(200)
    const read = await api('GET', `/zones/${z.id}/dns_records/${created.body.result.id}`)
    expect(read.body.result.content).toBe(content)
    expect(read.body.result.comment).toBe('smile \ud83d\ude00')
    expect(read.body.result.tags).toEqual(['mood:\ud83d\ude00'])
  })
})
