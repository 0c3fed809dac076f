/** @module Cloudflare-shaped token policies for the permissions and zones picked in the form. */
export const ZONE = 'com.cloudflare.api.account.zone.'
export const ACCOUNT = 'com.cloudflare.api.account.'

/** Cloudflare-shaped policies for the chosen groups: zone groups on the scope, token groups on the account. */
export function buildPolicies(groups, chosenIds, scope, zone) {
  const chosen = groups.filter((g) => chosenIds.includes(g.id))
  const zoneGroups = chosen.filter((g) => g.scopes.includes('com.cloudflare.api.account.zone'))
  const accountGroups = chosen.filter((g) => !g.scopes.includes('com.cloudflare.api.account.zone'))
  const policies = []
  const refs = (gs) => gs.map((g) => ({ id: g.id }))
  if (zoneGroups.length) {
    const resources =
      scope === 'zone'
        ? { [`${ZONE}${zone.id}`]: '*' }
        : { [`${ACCOUNT}${zone.account.id}`]: { [`${ZONE}*`]: '*' } }
    policies.push({ effect: 'allow', permission_groups: refs(zoneGroups), resources })
  }
  if (accountGroups.length)
    policies.push({
      effect: 'allow',
      permission_groups: refs(accountGroups),
      resources: { [`${ACCOUNT}${zone.account.id}`]: '*' },
    })
  return policies
}
