/**
 * Differential test against BIND 9.18: the same zones are imported into the real local stack
 * (API → ZoneBuilder → KV → DoH) and loaded into `named`, the same questions go to both over
 * DoH, and rcode, header flags, question, OPT and every section (as sets of RRs, TTLs included)
 * must be identical, except for the deviations documented in `deviations.ts`.
 */
import { EdgeDns } from '@edgedns/sdk'
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest'
// @ts-expect-error plain ESM helper shared with `pnpm dev`
import { freePort } from '../../../scripts/lib/stack.mjs'
import { hasNamed, startBind, type BindServer } from './bind.ts'
import { DEVIATIONS, type Comparable, type DeviationContext } from './deviations.ts'
import { decodeMessage, encodeQuery } from './message.ts'
import { queryCases, type QueryCase } from './queries.ts'
import { childBody, flatBody, flatName, parentBody, zoneNames } from './zones.ts'

const base: string = inject('stackBase')
const client = new EdgeDns({ baseUrl: base, token: inject('stackToken') })
const suffix = `${Date.now().toString(36)}${Math.floor(Math.random() * 1e4)}`
const z = zoneNames(suffix)
const flat = flatName(suffix)
const cases = queryCases(z, flat)
const enabled = hasNamed() || Boolean(process.env.CI)

let bind: BindServer | undefined
let ctx: DeviationContext

/** Creates a zone, imports `body`, waits until it is built; returns the zone's SOA and apex NS lines. */
async function hostZone(name: string, body: string): Promise<{ id: string; soaAndNs: string }> {
  const zone = await client.zones.create({ name })
  const imported = await client.records.import(zone.id, body)
  await client.waitForPropagation(zone.id, imported.changeSeq, { timeoutMs: 60_000 })
  const exported = await client.records.export(zone.id)
  const lines = exported.split('\n').filter((l) => {
    const [owner, , , type] = l.split('\t')
    return owner === `${name}.` && (type === 'SOA' || type === 'NS')
  })
  expect(lines.filter((l) => l.includes('\tSOA\t'))).toHaveLength(1)
  return { id: zone.id, soaAndNs: lines.join('\n') }
}

const ipHex = (ip: string): string => {
  if (ip.includes('.'))
    return ip
      .split('.')
      .map((n) => Number(n).toString(16).padStart(2, '0'))
      .join('')
  const [head, tail = ''] = ip.split('::')
  const groups = (s: string): string[] => (s === '' ? [] : s.split(':'))
  const h = groups(head as string)
  const t = groups(tail)
  const all = ip.includes('::')
    ? [...h, ...Array<string>(8 - h.length - t.length).fill('0'), ...t]
    : h
  return all.map((g) => g.padStart(4, '0')).join('')
}

beforeAll(async () => {
  if (!enabled) return
  const parent = await hostZone(z.parent, parentBody(z, { forBind: false }))
  const child = await hostZone(z.child, childBody(z))
  const flattened = await hostZone(flat, flatBody(z, flat, { forBind: false }))
  const settings = (await client.zones.dnsSettings(parent.id)) as unknown as {
    proxy_addresses: { ipv4: string[]; ipv6: string[] }
  }
  bind = await startBind(
    {
      [z.parent]: `${parent.soaAndNs}\n${parentBody(z, { forBind: true })}`,
      [z.child]: `${child.soaAndNs}\n${childBody(z)}`,
      [flat]: `${flattened.soaAndNs}\n${flatBody(z, flat, { forBind: true })}`,
    },
    await freePort()
  )
  const flatTarget = comparable(await bind.query(encodeQuery({ name: `www.${z.parent}`, type: 1 })))
  ctx = {
    proxyA: settings.proxy_addresses.ipv4.map(ipHex),
    proxyAAAA: settings.proxy_addresses.ipv6.map(ipHex),
    flatTargetAnswer: flatTarget.answer,
    flatCnameTtl: 600,
    zones: [z.parent, z.child, flat],
  }
}, 120_000)

afterAll(async () => {
  await bind?.stop()
})

async function askProject(message: Uint8Array): Promise<Uint8Array> {
  const res = await fetch(`${base}/dns-query`, {
    method: 'POST',
    headers: { 'content-type': 'application/dns-message', accept: 'application/dns-message' },
    body: message,
  })
  expect(res.status).toBe(200)
  return new Uint8Array(await res.arrayBuffer())
}

function comparable(bytes: Uint8Array): Comparable {
  const m = decodeMessage(bytes)
  return {
    rcode: m.rcode,
    flags: m.flags,
    question: m.question,
    answer: [...m.answer].sort(),
    authority: [...m.authority].sort(),
    additional: [...m.additional].sort(),
    opt: m.opt
      ? { payload: m.opt.payload, version: m.opt.version, do: m.opt.do, options: m.opt.options }
      : null,
  }
}

describe.runIf(enabled)('DoH answers equal BIND 9.18 on the same zones', () => {
  it('every deviation in the table is exercised by at least one query', () => {
    const used = new Set(cases.map((c) => c.deviation).filter(Boolean))
    expect([...used].sort()).toEqual(Object.keys(DEVIATIONS).sort())
  })

  it.each(cases.map((c) => [c.label, c] as [string, QueryCase]))('%s', async (_, q) => {
    const message = encodeQuery(q)
    const [fromBind, fromProject] = await Promise.all([bind!.query(message), askProject(message)])
    const b = comparable(fromBind)
    const p = comparable(fromProject)
    if (q.deviation) {
      expect(p, 'a documented deviation no longer differs: remove it').not.toEqual(b)
      DEVIATIONS[q.deviation].check(b, p, q, ctx)
    } else {
      expect(p).toEqual(b)
    }
  })
})
