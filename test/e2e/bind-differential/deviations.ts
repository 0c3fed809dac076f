/**
 * @module Every deliberate difference between the project's DoH answers and BIND 9.18's on the
 * same zone: the one place they are listed. Each entry says what BIND does, what we do and why,
 * and checks that exact difference (everything else in the two answers must still be equal).
 * A query marked with a deviation whose answers turn out identical fails too: the entry would be
 * stale.
 */
import { expect } from 'vitest'
import { TYPE_CODES } from '../../../packages/dns-facts/src/index.ts'
import type { Flags } from './message.ts'
import type { DeviationId, QueryCase } from './queries.ts'

/** What the suite compares: header, question, OPT, and each section as sorted RR lines. */
export interface Comparable {
  rcode: number
  flags: Flags
  question: { name: string; type: number; class: number }[]
  answer: string[]
  authority: string[]
  additional: string[]
  opt: { payload: number; version: number; do: boolean; options: number[] } | null
}

export interface DeviationContext {
  /** The zone's proxy addresses (dns_settings), as rdata hex. */
  proxyA: string[]
  proxyAAAA: string[]
  /** BIND's answer for the flattened apex CNAME's target (the same question, asked there). */
  flatTargetAnswer: string[]
  /** TTL of the flattened apex CNAME. */
  flatCnameTtl: number
  /** Every zone both servers host. */
  zones: string[]
}

export interface Deviation {
  bind: string
  project: string
  why: string
  check(bind: Comparable, project: Comparable, q: QueryCase, ctx: DeviationContext): void
}

const NOERROR = 0
const FORMERR = 1
const { A, NS, SOA, CNAME } = TYPE_CODES
const EDE = 15

/** `owner type class ttl rdata` → its parts. */
const parse = (line: string): { owner: string; type: number; ttl: number; rdata: string } => {
  const [owner, type, , ttl, ...rest] = line.split(' ')
  return { owner: owner as string, type: Number(type), ttl: Number(ttl), rdata: rest.join(' ') }
}
const rrsets = (lines: string[]): Set<string> =>
  new Set(lines.map((l) => `${parse(l).owner} ${parse(l).type}`))

/** Both answers equal except the answer and authority sections (the difference under test). */
function sameOutsideData(bind: Comparable, project: Comparable): void {
  expect({ ...project, answer: [], authority: [] }).toEqual({ ...bind, answer: [], authority: [] })
}

/** The hosted zone a name belongs to: the longest zone name it ends in. */
const zoneOf = (name: string, zones: string[]): string | undefined =>
  zones
    .filter((z) => name === `${z}.` || name.endsWith(`.${z}.`))
    .sort((a, b) => b.length - a.length)[0]

export const DEVIATIONS: Record<DeviationId, Deviation> = {
  proxied: {
    bind: 'serves the stored origin address (and NODATA for AAAA at an A-only name)',
    project:
      "answers A and AAAA at a proxied name with the zone's proxy addresses, TTL 300, and an A-only proxied name also answers AAAA",
    why: "Cloudflare's proxy: the origin stays hidden behind the zone's proxy addresses. BIND has no such notion; its copy of the zone holds the origin.",
    check(bind, project, q, ctx) {
      sameOutsideData(bind, project)
      expect(project.rcode).toBe(NOERROR)
      const want = (q.type === A ? ctx.proxyA : ctx.proxyAAAA).map(
        (hex) => `${q.name.toLowerCase()}. ${q.type} 1 300 ${hex}`
      )
      expect(project.answer).toEqual([...want].sort())
      expect(project.authority).toEqual([])
      expect(bind.answer).not.toEqual(project.answer)
    },
  },
  flattening: {
    bind: 'cannot load a CNAME at a zone apex (beside SOA and NS), so its copy of the zone lacks that line and the apex A question is NODATA',
    project:
      "flattens the apex CNAME: A and AAAA at the apex are the target's addresses (followed through hosted zones), owned by the apex, TTL min(CNAME TTL, address TTL)",
    why: "Cloudflare's CNAME flattening, which lets a zone apex point at another name.",
    check(bind, project, q, ctx) {
      sameOutsideData(bind, project)
      expect(bind).toMatchObject({ rcode: NOERROR, answer: [] })
      expect(bind.authority.map((l) => parse(l).type)).toEqual([SOA])
      expect(project.rcode).toBe(NOERROR)
      expect(project.authority).toEqual([])
      // The target's own records, owned by the apex, TTL min(CNAME TTL, record TTL).
      const want = ctx.flatTargetAnswer
        .map(parse)
        .map((rr) =>
          [
            `${q.name.toLowerCase()}.`,
            rr.type,
            1,
            Math.min(rr.ttl, ctx.flatCnameTtl),
            rr.rdata,
          ].join(' ')
        )
      expect(want.length).toBeGreaterThan(0)
      expect(project.answer).toEqual(want.sort())
    },
  },
  'any-rfc8482': {
    bind: 'answers ANY over TCP and DoH with every RRset at the name (its minimal-any applies to UDP only)',
    project: 'answers ANY with one RRset: the one with the lowest type code (RFC 8482 §4.2)',
    why: 'RFC 8482 lets an authoritative server answer ANY with a subset; one RRset is cheap and gives ANY no amplification.',
    check(bind, project) {
      sameOutsideData(bind, project)
      expect(project.rcode).toBe(NOERROR)
      expect(rrsets(project.answer).size).toBe(1)
      for (const line of project.answer) expect(bind.answer).toContain(line)
      const lowest = Math.min(...bind.answer.map((l) => parse(l).type))
      expect(project.answer.every((l) => parse(l).type === lowest)).toBe(true)
      expect(rrsets(bind.answer).size).toBeGreaterThan(1)
    },
  },
  'sibling-glue': {
    bind: 'with minimal-responses, gives glue only for name servers below the cut',
    project:
      'also gives the addresses of name servers elsewhere in the same zone (sibling glue) in the additional section of a referral',
    why: 'RFC 9471 requires in-domain glue and allows sibling glue; the zone holds those addresses authoritatively, and giving them saves the resolver a lookup.',
    check(bind, project) {
      expect({ ...project, additional: [] }).toEqual({ ...bind, additional: [] })
      const extra = project.additional.filter((l) => !bind.additional.includes(l))
      for (const line of bind.additional) expect(project.additional).toContain(line)
      expect(extra.length).toBeGreaterThan(0)
      const ns = project.authority.map(parse).filter((rr) => rr.type === NS)
      const cut = ns[0]?.owner as string
      const targets = new Set(ns.map((rr) => rr.rdata))
      for (const rr of extra.map(parse)) {
        expect(targets.has(rr.owner)).toBe(true)
        expect(rr.owner === cut || rr.owner.endsWith(`.${cut}`)).toBe(false)
      }
    },
  },
  'cross-zone-cname': {
    bind: 'stops a CNAME chain at the edge of the zone it started in, even when it hosts the target zone too',
    project:
      'follows the chain into the other hosted zone and answers the target there (AA stays set, as every step is authoritative)',
    why: 'Both zones are ours, so the whole answer is authoritative; the resolver is saved a second query (Cloudflare does the same).',
    check(bind, project, q, ctx) {
      expect({ ...project, answer: [] }).toEqual({ ...bind, answer: [] })
      for (const line of bind.answer) expect(project.answer).toContain(line)
      const last = bind.answer
        .map(parse)
        .filter((rr) => rr.type === CNAME)
        .at(-1)
      expect(last).toBeDefined()
      const target = last!.rdata
      expect(zoneOf(target, ctx.zones)).not.toBe(zoneOf(`${q.name.toLowerCase()}.`, ctx.zones))
      const extra = project.answer.filter((l) => !bind.answer.includes(l)).map(parse)
      expect(extra.length).toBeGreaterThan(0)
      expect(extra.some((rr) => rr.owner === target)).toBe(true)
      for (const rr of extra) expect(zoneOf(rr.owner, ctx.zones)).toBe(zoneOf(target, ctx.zones))
    },
  },
  ede: {
    bind: 'attaches an Extended DNS Error option (RFC 8914) to some error answers: "max. restarts reached" for a CNAME loop, "prohibited" for class HS (not for CH, where BIND has its built-in view)',
    project: 'sends no EDNS option; the rcode is the same',
    why: 'EDE is optional and informational; the rcode and every section agree.',
    check(bind, project) {
      const withoutOptions = (c: Comparable) => ({ ...c, opt: c.opt && { ...c.opt, options: [] } })
      expect(withoutOptions(project)).toEqual(withoutOptions(bind))
      expect(bind.opt?.options).toEqual([EDE])
      expect(project.opt?.options).toEqual([])
    },
  },
  'cname-chain-limit': {
    bind: 'follows up to 11 CNAMEs in one answer and answers SERVFAIL past that',
    project:
      'follows 8 CNAMEs; the 9th is answered but not followed (NOERROR), so the resolver continues the chain from its target',
    why: 'Each hop is a KV read made one after the other; 8 bounds the latency of one answer, and a partial chain is a valid answer a resolver completes.',
    check(bind, project) {
      expect({ ...project, answer: [] }).toEqual({ ...bind, answer: [] })
      expect(project.rcode).toBe(NOERROR)
      const cnames = project.answer.map(parse).filter((rr) => rr.type === CNAME)
      expect(cnames).toHaveLength(9)
      expect(project.answer).toHaveLength(9)
      for (const line of project.answer) expect(bind.answer).toContain(line)
      expect(bind.answer.length).toBeGreaterThan(project.answer.length)
    },
  },
  'class-any': {
    bind: 'answers a question of class ANY (255) with FORMERR',
    project: 'answers a class-ANY question as if it were class IN, without AA',
    why: 'RFC 1035 allows QCLASS * in a query, and we host class IN only, so IN is what ANY can mean; an answer to QCLASS ANY is never authoritative (RFC 6895 §3.2).',
    check(bind, project) {
      expect(bind).toMatchObject({ rcode: FORMERR, answer: [], authority: [] })
      expect(bind.flags.aa).toBe(false)
      expect(project.rcode).toBe(NOERROR)
      expect(project.flags.aa).toBe(false)
      expect(project.answer.length).toBeGreaterThan(0)
      expect(project.question).toEqual(bind.question)
    },
  },
}
