/**
 * @module Signs a resolved answer online (DO=1): an RRSIG for every authoritative RRset under
 * each of its zone's keys, and compact denial of existence (RFC 9824): a negative answer is a
 * NODATA whose one NSEC sits at the query name, its next name the immediate successor, listing
 * the types that exist there, or NXNAME when the name does not exist (answered NOERROR).
 * Wildcard answers are signed over the wildcard owner (so the labels field shows the expansion)
 * with an NSEC minimally covering the next closer name; a signed zone's referral carries the DS set
 * or an NSEC at the cut proving there is none (an unsigned zone's, neither). Glue and the NS of a
 * referral are not signed (RFC 4035 §2.2).
 */
import type { Resolution, RR, SigningHints, ZoneMeta } from '@edgedns/resolver'
import { parseName, type Labels } from '@edgedns/dns-wire'
import { afterSubtree, labelsText, predecessor, successor } from './names.ts'
import { TYPE_CODES } from '@edgedns/dns-facts'
import { NSEC, NXNAME, RRSIG, nsecRdata } from './nsec.ts'
import { signRRset, type SigningKey } from './rrsig.ts'
import type { SignatureCache } from './signature-cache.ts'
import { DEFAULT_VALIDITY, validityAt, type ValidityPolicy } from './validity.ts'

const NS = 2
const { DS, SOA } = TYPE_CODES

/** Whether an RRSIG (rdata in RFC 3597 form: `\\# len hex`) signs records of `type`. */
const covers = (rrsig: RR, type: number): boolean =>
  parseInt(rrsig.rdata.split(' ')[2]?.slice(0, 4) ?? '', 16) === type

export interface SignOptions {
  /** The keys that sign for a zone now, or null when the zone is not signed. */
  keysFor(zone: ZoneMeta): Promise<SigningKey[] | null>
  cache?: SignatureCache
  nowSeconds: number
  policy?: ValidityPolicy
}

const lower = (name: string): string => name.toLowerCase().replace(/\.$/, '')

function inZone(name: string, zone: string): boolean {
  return zone === '' || name === zone || name.endsWith(`.${zone}`)
}

/** Consecutive records with the same owner and type. */
function rrsets(rrs: RR[]): RR[][] {
  const sets: RR[][] = []
  for (const rr of rrs) {
    const last = sets[sets.length - 1]
    if (last && last[0]!.type === rr.type && lower(last[0]!.name) === lower(rr.name)) last.push(rr)
    else sets.push([rr])
  }
  return sets
}

class Signer {
  readonly #keys = new Map<string, Promise<SigningKey[] | null>>()
  private readonly hints: SigningHints
  private readonly options: SignOptions

  constructor(hints: SigningHints, options: SignOptions) {
    this.hints = hints
    this.options = options
  }

  /** The hosted zone that signs an RRset: the deepest containing its owner (the parent for DS). */
  zoneFor(owner: string, type: number): ZoneMeta | undefined {
    let best: ZoneMeta | undefined
    for (const zone of this.hints.zones) {
      if (!inZone(owner, zone.name) || (type === DS && owner === zone.name)) continue
      if (!best || zone.name.length > best.name.length) best = zone
    }
    return best
  }

  keys(zone: ZoneMeta): Promise<SigningKey[] | null> {
    let keys = this.#keys.get(zone.name)
    if (!keys) this.#keys.set(zone.name, (keys = this.options.keysFor(zone)))
    return keys
  }

  /** The set followed by its RRSIGs (none when its zone is not signed). */
  async signed(set: RR[], signedOwner?: string): Promise<RR[]> {
    const first = set[0]!
    const owner = lower(first.name)
    const zone = this.zoneFor(owner, first.type)
    const keys = zone ? await this.keys(zone) : null
    if (!zone || !keys || keys.length === 0) return set
    const rrsigs = await this.rrsigs(zone.name, keys, {
      owner: signedOwner ?? owner,
      type: first.type,
      ttl: first.ttl,
      rdata: set.map((r) => r.rdata),
    })
    return [
      ...set,
      ...rrsigs.map((rdata) => ({ name: first.name, type: RRSIG, ttl: first.ttl, rdata })),
    ]
  }

  async rrsigs(
    signer: string,
    keys: SigningKey[],
    set: { owner: string; type: number; ttl: number; rdata: string[] }
  ): Promise<string[]> {
    const { cache, nowSeconds } = this.options
    const policy = this.options.policy ?? DEFAULT_VALIDITY
    const key = `${signer}|${keys.map((k) => k.tag).join(',')}|${set.owner}|${set.type}|${set.ttl}|${set.rdata.join('\u0000')}`
    const cached = cache?.get(key, nowSeconds)
    if (cached) return cached
    const validity = validityAt(nowSeconds, key, policy)
    const rrsigs = await Promise.all(keys.map((k) => signRRset(set, signer, validity, k)))
    cache?.set(key, rrsigs, nowSeconds + policy.reuse)
    return rrsigs
  }

  /** A signed NSEC record at `owner` (lowercase) in `zone`. */
  async nsec(zoneName: string, owner: Labels, next: Labels, types: number[]): Promise<RR[]> {
    const zone = this.hints.zones.find((z) => z.name === zoneName)
    // An unsigned zone's answer gets no NSEC: proof without a signature proves nothing.
    if (!zone || ((await this.keys(zone))?.length ?? 0) === 0) return []
    const ttl = Math.min(zone.soa.ttl, zone.soa.minimum)
    const rr: RR = {
      name: labelsText(owner),
      type: NSEC,
      ttl,
      rdata: nsecRdata(next, [...types, RRSIG, NSEC]),
    }
    return this.signed([rr])
  }
}

async function signSection(
  signer: Signer,
  rrs: RR[],
  wildcards: Map<string, string>,
  skip: (set: RR[]) => boolean
): Promise<RR[]> {
  const out: RR[] = []
  for (const set of rrsets(rrs)) {
    if (skip(set)) out.push(...set)
    else out.push(...(await signer.signed(set, wildcards.get(lower(set[0]!.name)))))
  }
  return out
}

/** `res` with its DNSSEC records; unchanged when it carries no hints or no zone of it is signed. */
export async function signResolution(res: Resolution, options: SignOptions): Promise<Resolution> {
  const hints = res.dnssec
  const answering = res.rcode === 'NOERROR' || res.rcode === 'NXDOMAIN'
  // A CNAME loop is SERVFAIL with the chain (as BIND answers): its CNAMEs are signed all the same.
  if (!hints || (!answering && (res.rcode !== 'SERVFAIL' || res.answer.length === 0))) return res
  const signer = new Signer(hints, options)
  const wildcards = new Map(hints.wildcards.map((w) => [w.owner, w.wildcard]))
  const answer = await signSection(signer, res.answer, wildcards, () => false)
  if (!answering) return { ...res, answer }
  const cutName = hints.cut?.name
  let authority = await signSection(
    signer,
    res.authority,
    new Map(),
    (set) => set[0]!.type === NS && lower(set[0]!.name) === cutName
  )
  let rcode = res.rcode

  for (const { owner, wildcard, encloserTypes } of hints.wildcards) {
    const zone = signer.zoneFor(owner, 0)
    if (zone)
      authority.push(...(await nextCloserProof(signer, zone.name, owner, wildcard, encloserTypes)))
  }
  if (hints.negative) {
    const { name, zone, types } = hints.negative
    const labels = parseName(name)
    const nsec = await signer.nsec(zone, labels, successor(labels), types ?? [NXNAME])
    // RFC 9824: the name is answered as existing without data; NXNAME in the bitmap says otherwise.
    if (rcode === 'NXDOMAIN' && (await zoneSigned(signer, zone))) rcode = 'NOERROR'
    if ((hints.qtype === NSEC || hints.qtype === RRSIG) && nsec.length > 0) {
      // The NSEC at the name, or the signatures there, are the data asked for (the NSEC's bitmap
      // lists both): answered, as a signed zone holding them answers, with no SOA of a denial.
      authority = authority.filter(
        (rr) => rr.type !== SOA && !(rr.type === RRSIG && covers(rr, SOA))
      )
      if (hints.qtype === NSEC) answer.push(...nsec)
      else {
        for (const set of hints.covered ?? []) {
          const signed = await signer.signed(set, wildcards.get(lower(set[0]!.name)))
          answer.push(...signed.filter((rr) => rr.type === RRSIG))
        }
        answer.push(...nsec.filter((rr) => rr.type === RRSIG))
      }
    } else authority.push(...nsec)
  }
  // RFC 4035 §3.1.4: a signed zone's referral proves its DS (the set and its RRSIG) or its absence
  // (NSEC); an unsigned zone's referral is NS and glue alone, whatever the zone holds at the cut.
  if (hints.cut && (await zoneSigned(signer, hints.cut.zone))) {
    const { name, zone, ds } = hints.cut
    if (ds && ds.rdata.length > 0) {
      authority.push(
        ...(await signer.signed(ds.rdata.map((rdata) => ({ name, type: DS, ttl: ds.ttl, rdata }))))
      )
    } else {
      const labels = parseName(name)
      authority.push(...(await signer.nsec(zone, labels, successor(labels), [NS])))
    }
  }
  return { ...res, rcode, answer, authority }
}

/**
 * The NSEC proving that a wildcard answer's next closer name (the query name cut to one label
 * below the wildcard's encloser) does not exist: at a name that no zone holds right before it, or,
 * for `\000.<encloser>`, which nothing but the encloser precedes, at the encloser with the types
 * it holds. Never an NSEC at a name that exists with types it lacks: that would be a signed
 * denial of the name's data anyone could replay. None when no such name fits (names of nearly
 * 255 octets): the answer then fails validation rather than carry a false proof.
 */
async function nextCloserProof(
  signer: Signer,
  zone: string,
  owner: string,
  wildcard: string,
  encloserTypes: number[]
): Promise<RR[]> {
  const qLabels = parseName(owner)
  const depth = parseName(wildcard).length
  const nextCloser = qLabels.slice(qLabels.length - depth)
  const next = afterSubtree(nextCloser)
  const before = predecessor(nextCloser)
  if (before) return signer.nsec(zone, before, next, [])
  const first = nextCloser[0]!
  if (first.length === 1 && first[0] === 0)
    return signer.nsec(zone, nextCloser.slice(1), next, encloserTypes)
  return []
}

async function zoneSigned(signer: Signer, zoneName: string): Promise<boolean> {
  const zone = signer.zoneFor(zoneName, 0)
  return zone !== undefined && ((await signer.keys(zone))?.length ?? 0) > 0
}
