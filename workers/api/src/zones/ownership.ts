/**
 * @module Zone ownership (docs/zone-ownership.md): whether new zones must prove control of their
 * name before they are served, and the proof — a TXT record holding the zone's verification key, or
 * the name's delegation to the name servers the platform assigned to the zone.
 */
import { ResolverError, type OwnershipResolver } from './resolver.ts'

/** `ZONE_VERIFICATION`: `off` serves new zones at once (local development, tests); anything else requires proof. */
export type VerificationMode = 'required' | 'off'

export function verificationMode(env: { ZONE_VERIFICATION?: string }): VerificationMode {
  return env.ZONE_VERIFICATION === 'off' ? 'off' : 'required'
}

/** The owner name of the TXT record that proves control: `_edgedns-verify.<zone>`. */
const VERIFICATION_LABEL = '_edgedns-verify'

function verificationName(zone: string): string {
  return `${VERIFICATION_LABEL}.${zone}`
}

export interface PendingZone {
  name: string
  verificationKey: string | null
  /** The name servers the platform assigned to the zone (never its vanity ones, which its account chooses). */
  nameServers: string[]
}

export type Verdict =
  { verified: true; method: 'txt' | 'delegation' } | { verified: false; reason: string }

const sameSet = (a: string[], b: string[]): boolean => {
  const x = new Set(a.map((n) => n.toLowerCase().replace(/\.$/, '')))
  const y = new Set(b.map((n) => n.toLowerCase().replace(/\.$/, '')))
  return x.size === y.size && [...x].every((n) => y.has(n))
}

/**
 * Asks the resolver for both proofs. The TXT record names the account (each pending copy of a name
 * has its own key); a delegation does not (every zone is given the same name servers), so it proves
 * ownership only while no other account has the name pending.
 */
export async function checkOwnership(
  resolver: OwnershipResolver,
  zone: PendingZone,
  pendingElsewhere: number
): Promise<Verdict> {
  const txtName = verificationName(zone.name)
  const problems: string[] = []
  try {
    const values = await resolver.txt(txtName)
    if (zone.verificationKey !== null && values.some((v) => v.trim() === zone.verificationKey))
      return { verified: true, method: 'txt' }
    problems.push(`no TXT record at ${txtName} holds the zone's verification_key`)
  } catch (e) {
    if (!(e instanceof ResolverError)) throw e
    problems.push(`the TXT record at ${txtName} could not be looked up (${e.message})`)
  }
  try {
    const delegated = await resolver.nameServers(zone.name)
    if (sameSet(delegated, zone.nameServers)) {
      if (pendingElsewhere === 0) return { verified: true, method: 'delegation' }
      problems.push(
        `${zone.name} is delegated to ${zone.nameServers.join(', ')}, but the name is pending in another account too, and those name servers are shared: prove ownership with the TXT record`
      )
    } else {
      problems.push(
        delegated.length === 0
          ? `${zone.name} is not delegated to ${zone.nameServers.join(', ')}`
          : `${zone.name} is delegated to ${delegated.join(', ')}, not to ${zone.nameServers.join(', ')}`
      )
    }
  } catch (e) {
    if (!(e instanceof ResolverError)) throw e
    problems.push(`the delegation of ${zone.name} could not be looked up (${e.message})`)
  }
  return { verified: false, reason: `${zone.name} is still pending: ${problems.join('; ')}.` }
}
