/**
 * @module What a token may grant when it makes another: no more than it holds itself. Each
 * permission of each new policy, on each of its resources, must be held by the minter on that
 * resource (an account covers its zones), and the new token may not outlive the minter.
 */
import type { Grant, Permission, Principal } from './permissions.ts'

/** Why the new grants exceed the minter's, or null when they do not. */
export function uncoveredGrant(
  minter: Principal,
  wanted: Grant[],
  zoneAccount: (zoneId: string) => string | undefined
): string | null {
  if (minter.admin) return null
  const holds = (perm: Permission, test: (g: Grant) => boolean) =>
    minter.grants.some((g) => g.permissions.has(perm) && (g.everything || test(g)))
  for (const [i, w] of wanted.entries()) {
    for (const perm of w.permissions) {
      if (w.everything && !holds(perm, () => false))
        return `policies[${i}] grants ${perm} on every account`
      for (const account of w.accounts)
        if (!holds(perm, (g) => g.accounts.has(account)))
          return `policies[${i}] grants ${perm} on account ${account}`
      for (const zone of w.zones) {
        const account = zoneAccount(zone)
        const covered = holds(
          perm,
          (g) => g.zones.has(zone) || (account !== undefined && g.accounts.has(account))
        )
        if (!covered) return `policies[${i}] grants ${perm} on zone ${zone}`
      }
    }
  }
  return null
}

/**
 * Why a new token's expiry outlives its minter's, or null when it does not: a minter that expires
 * may only make tokens that expire no later than it does.
 */
export function expiryBeyondMinter(
  minter: Principal,
  expiresOn: string | undefined
): string | null {
  if (minter.admin || minter.expiresOn === null) return null
  if (expiresOn === undefined)
    return `expires_on is required and may be at most ${minter.expiresOn}, when this token expires`
  if (Date.parse(expiresOn) > Date.parse(minter.expiresOn))
    return `expires_on ${expiresOn} is later than ${minter.expiresOn}, when this token expires`
  return null
}
