/**
 * @module The questions asked of both servers. Each names the deviation it is expected to show
 * (see `deviations.ts`), or none: then the two answers must be identical.
 */
import { TYPE_CODES } from '../../../packages/dns-facts/src/index.ts'
import type { QuerySpec } from './message.ts'
import { LONG_CHAIN, WIDE_NS, type ZoneNames } from './zones.ts'

export interface QueryCase extends QuerySpec {
  /** Short label for the test title. */
  label: string
  deviation?: DeviationId
}

export type DeviationId =
  | 'proxied'
  | 'flattening'
  | 'any-rfc8482'
  | 'sibling-glue'
  | 'cross-zone-cname'
  | 'ede'
  | 'class-any'
  | 'cname-chain-limit'

/**
 * Type codes from the project's type table. This does not blind the suite to a wrong code there:
 * BIND loads the same zone files with its own table, so a record served under a wrong code would
 * differ from BIND's answer.
 */
const T = TYPE_CODES

/** Deterministic case scrambling (a fixed-seed LCG), as a resolver using 0x20 would send. */
function randomCase(name: string, seed: number): string {
  let s = seed >>> 0
  return [...name]
    .map((c) => {
      s = (Math.imul(s, 1664525) + 1013904223) >>> 0
      return s & 0x10000 ? c.toUpperCase() : c.toLowerCase()
    })
    .join('')
}

export function queryCases(z: ZoneNames, flat: string): QueryCase[] {
  const p = (label: string): string => (label === '@' ? z.parent : `${label}.${z.parent}`)
  const c = (label: string): string => (label === '@' ? z.child : `${label}.${z.child}`)
  const q = (
    label: string,
    name: string,
    type: number,
    extra: Partial<QueryCase> = {}
  ): QueryCase => ({ label, name, type, ...extra })

  const cases: QueryCase[] = [
    // The apex and every record type the API accepts, at its owner.
    ...(
      [
        'SOA',
        'NS',
        'A',
        'AAAA',
        'MX',
        'TXT',
        'CAA',
        'HTTPS',
        'DNSKEY',
        'CERT',
        'NAPTR',
        'SSHFP',
      ] as const
    ).map((t) => q(`apex ${t}`, p('@'), T[t])),
    q('apex: type with no data (NODATA)', p('@'), T.SRV),
    q('apex: DS (NODATA at the parentless apex)', p('@'), T.DS),
    q('apex: RRSIG of an unsigned zone', p('@'), T.RRSIG),
    q('apex: NSEC of an unsigned zone', p('@'), T.NSEC),
    q('A RRset of two', p('www'), T.A),
    q('AAAA', p('www'), T.AAAA),
    q('CNAME question at a non-CNAME name', p('www'), T.CNAME),
    q('TXT with several strings and escapes, and one over 255 octets', p('txt'), T.TXT),
    q('LOC', p('loc'), T.LOC),
    q('PTR', p('ptr'), T.PTR),
    q('SVCB with an emoji value', p('svc'), T.SVCB),
    q('SRV (target outside)', p('_sip._udp'), T.SRV),
    q('SRV (target inside)', p('_sip._tcp'), T.SRV),
    q('URI with an emoji', p('_http._tcp'), T.URI),
    q('TLSA', p('_443._tcp.www'), T.TLSA),
    q('OPENPGPKEY', p('c0ffee._openpgpkey'), T.OPENPGPKEY),
    q('SMIMEA', p('beef._smimecert'), T.SMIMEA),
    q('MX target A', p('mail'), T.A),
    q('private-use type (NODATA)', p('www'), 65280),
    q('type 0 (NODATA)', p('www'), 0),
    // Negative answers.
    q('NXDOMAIN', p('nothing-here'), T.A),
    q('NXDOMAIN below an existing name', p('x.www'), T.A),
    q('names in no hosted zone are REFUSED', 'www.example.org', T.A),
    q('a parent of hosted zones is REFUSED', 'example', T.NS),
    // Empty non-terminals.
    q('ENT is NODATA', p('b.ent'), T.A),
    q('ENT TXT is NODATA', p('b.ent'), T.TXT),
    q('NXDOMAIN below an ENT', p('zz.b.ent'), T.A),
    q('name below an ENT', p('a.b.ent'), T.A),
    // Wildcards.
    q('wildcard A', p('anything.wild'), T.A),
    q('wildcard TXT', p('anything.wild'), T.TXT),
    q('wildcard, type it lacks (NODATA)', p('anything.wild'), T.MX),
    q('wildcard deeper than one label', p('a.b.c.wild'), T.A),
    q('existing name blocks the wildcard', p('host.wild'), T.TXT),
    q('the wildcard owner itself', p('*.wild'), T.A),
    q('ENT blocks the wildcard above it', p('y.ent2'), T.A),
    q('wildcard below an ENT', p('other.ent2'), T.A),
    q('NXDOMAIN below a name that blocks the wildcard', p('q.host.wild'), T.A),
    q('wildcard CNAME', p('zz.cnwild'), T.A),
    // CNAME chains.
    q('CNAME chain to an A', p('c1'), T.A),
    q('CNAME chain, AAAA', p('c1'), T.AAAA),
    q('CNAME chain, type the end lacks', p('c1'), T.MX),
    q('CNAME question answers the CNAME only', p('c1'), T.CNAME),
    q('CNAME chain entered midway', p('c3'), T.A),
    q('dangling CNAME is NXDOMAIN with the chain', p('dangling'), T.A),
    q('CNAME out of hosted zones', p('toout'), T.A),
    q('CNAME to a wildcard', p('towild'), T.A),
    q('CNAME to a name below a delegation', p('todeleg'), T.A, { deviation: 'sibling-glue' }),
    q(`CNAME chain of ${LONG_CHAIN}`, p('long0'), T.A, { deviation: 'cname-chain-limit' }),
    q('CNAME chain of 8 is followed by both', p('long2'), T.A),
    q('CNAME loop is SERVFAIL', p('loop1'), T.A, { deviation: 'ede' }),
    q('CNAME into the nested child zone', p('tochild'), T.A, { deviation: 'cross-zone-cname' }),
    q('CNAME from the child back to the parent', c('back'), T.A, { deviation: 'cross-zone-cname' }),
    // Delegations with glue and DS.
    q('referral at the cut', p('deleg'), T.A, { deviation: 'sibling-glue' }),
    q('referral for NS at the cut', p('deleg'), T.NS, { deviation: 'sibling-glue' }),
    q('referral below the cut', p('host.deleg'), T.A, { deviation: 'sibling-glue' }),
    q('glue name itself is a referral', p('ns1.deleg'), T.A, { deviation: 'sibling-glue' }),
    q('DS at the cut is answered by the parent', p('deleg'), T.DS),
    q('DS below the cut is a referral', p('x.deleg'), T.DS, { deviation: 'sibling-glue' }),
    q('DS at a cut without DS is NODATA', p('nodsdeleg'), T.DS),
    q('referral without glue', p('www.nodsdeleg'), T.A),
    q(`referral with ${WIDE_NS} in-domain name servers keeps all glue`, p('wide'), T.A),
    // The nested child zone.
    q('child apex SOA comes from the child', c('@'), T.SOA),
    q('child apex NS', c('@'), T.NS),
    q('child apex A', c('@'), T.A),
    q('child DS comes from the parent', c('@'), T.DS),
    q('child name', c('www'), T.A),
    q('child NXDOMAIN uses the child SOA', c('nothing'), T.A),
    q('child ENT', c('ent'), T.AAAA),
    q('child wildcard', c('any.thing'), T.TXT),
    // Case-randomised names (the question is echoed byte for byte).
    ...[
      ['www', T.A],
      ['c1', T.A],
      ['anything.wild', T.TXT],
      ['b.ent', T.A],
      ['nothing-here', T.A],
      ['@', T.MX],
    ].map(([label, type], i) =>
      q(`case-randomised ${label} ${type}`, randomCase(p(label as string), 7 + i), type as number)
    ),
    q('case-randomised referral', randomCase(p('www.wide'), 5), T.A),
    q('case-randomised child name', randomCase(c('www'), 99), T.A),
    // EDNS variants and header bits.
    q('no OPT', p('www'), T.A, { edns: null }),
    q('no OPT, NXDOMAIN', p('nope'), T.A, { edns: null }),
    q('OPT with DO', p('www'), T.A, { edns: { do: true } }),
    q('OPT with DO at a signed-looking DS', p('deleg'), T.DS, { edns: { do: true } }),
    q('OPT with DO: a referral from the unsigned zone has no DS', p('host.deleg'), T.A, {
      edns: { do: true },
      deviation: 'sibling-glue',
    }),
    q('OPT with a 512-octet payload: DoH is not truncated', p('txt'), T.TXT, {
      edns: { payload: 512 },
    }),
    q('no OPT, large answer: DoH is not truncated', p('wide'), T.NS, { edns: null }),
    q('EDNS version 1 is BADVERS', p('www'), T.A, { edns: { version: 1 } }),
    q('EDNS version 1 without a zone is BADVERS', 'www.example.org', T.A, { edns: { version: 1 } }),
    q('RD clear is echoed', p('www'), T.A, { rd: false }),
    q('CD set is echoed', p('www'), T.A, { cd: true }),
    // Classes and meta types.
    q('class CH is REFUSED', p('www'), T.A, { klass: 3 }),
    q('class HS is REFUSED', p('www'), T.A, { klass: 4, deviation: 'ede' }),
    q('class NONE is FORMERR', p('www'), T.A, { klass: 254 }),
    q('class 0 is FORMERR', p('www'), T.A, { klass: 0 }),
    q('unassigned class is NOTIMP', p('www'), T.A, { klass: 2 }),
    q('TKEY is FORMERR', p('www'), T.TKEY),
    q('TSIG is FORMERR', p('www'), T.TSIG),
    q('OPT as QTYPE is FORMERR', p('www'), T.OPT),
    q('meta type 128 is FORMERR', p('www'), 128),
    q('AXFR over DoH is NOTIMP', p('@'), T.AXFR),
    q('IXFR over DoH is NOTIMP', p('@'), T.IXFR),
    q('MAILA is NOTIMP', p('@'), T.MAILA),
    q('MAILB is NOTIMP', p('@'), T.MAILB),
    q('TSIG outside hosted zones is FORMERR', 'www.example.org', T.TSIG),
    // Documented deviations (deviations.ts).
    q('proxied A', p('proxied'), T.A, { deviation: 'proxied' }),
    q('proxied A-only name asked AAAA', p('proxied'), T.AAAA, { deviation: 'proxied' }),
    q('proxied AAAA', p('proxied6'), T.AAAA, { deviation: 'proxied' }),
    q('proxied name, other type is NODATA in both', p('proxied'), T.TXT),
    q('flattened apex CNAME, A', flat, T.A, { deviation: 'flattening' }),
    q('flattened apex, TXT is data in both', flat, T.TXT),
    q('ANY at the apex', p('@'), T.ANY, { deviation: 'any-rfc8482' }),
    q('ANY at a name with two types', p('www'), T.ANY, { deviation: 'any-rfc8482' }),
    q('ANY at a name with one RRset is the same', p('mail'), T.ANY),
    q('class ANY', p('www'), T.A, { klass: 255, deviation: 'class-any' }),
  ]
  return cases
}
