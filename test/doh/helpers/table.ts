/**
 * @module Test helper: table-driven cases asked over GET, POST and the JSON API, compared with
 * one expectation (lowercased RR lines `owner. ttl TYPE rdata`, sorted per section).
 */
import { expect, it } from 'vitest'
import { typeName } from '../../../packages/dns-wire/src/index.ts'
import { askBoth, askJson } from './doh.ts'

export interface Case {
  name: string
  qname: string
  qtype: string
  rcode?: string
  aa?: boolean
  answer?: string[]
  authority?: string[]
  additional?: string[]
  /** Expected Cache-Control (`max-age=N` or `no-store`); checked when given. */
  cache?: string
}

const sorted = (lines: string[]): string[] => lines.map((l) => l.toLowerCase()).sort()

const RCODES: Record<number, string> = {
  0: 'NOERROR',
  1: 'FORMERR',
  2: 'SERVFAIL',
  3: 'NXDOMAIN',
  4: 'NOTIMP',
  5: 'REFUSED',
}

/** Runs each case through GET and POST (byte-identical), then the JSON API. */
export function runCases(cases: Case[]): void {
  it.each(cases)('$name', async (c) => {
    const want = {
      rcode: c.rcode ?? 'NOERROR',
      answer: sorted(c.answer ?? []),
      authority: sorted(c.authority ?? []),
      additional: sorted(c.additional ?? []),
    }
    const wire = await askBoth(c.qname, c.qtype)
    expect({
      rcode: wire.rcode,
      answer: sorted(wire.answer),
      authority: sorted(wire.authority),
      additional: sorted(wire.additional),
    }).toEqual(want)
    expect(wire.message.aa).toBe(c.aa ?? want.rcode !== 'REFUSED')
    if (c.cache !== undefined) expect(wire.cacheControl).toBe(c.cache)

    const json = await askJson(c.qname, c.qtype)
    expect(json.status).toBe(200)
    const lines = (rrs: any[] | undefined) =>
      sorted((rrs ?? []).map((rr) => `${rr.name} ${rr.TTL} ${typeName(rr.type)} ${rr.data}`))
    expect({
      rcode: RCODES[json.body.Status],
      answer: lines(json.body.Answer),
      authority: lines(json.body.Authority),
      additional: lines(json.body.Additional),
    }).toEqual(want)
    expect(json.headers.get('cache-control')).toBe(wire.cacheControl)
  })
}
