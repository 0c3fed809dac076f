/**
 * @module Permission groups a token policy can grant, and how resources scope them.
 */

export type Permission =
  | 'zone:read'
  | 'zone:edit'
  | 'dns:read'
  | 'dns:edit'
  | 'tokens:edit'
  /**
   * Relay secondaries' AXFR/IXFR to `POST /dns_transfer`, and primaries' NOTIFY to
   * `POST /dns_notify`, on their behalf (a DNS front).
   */
  | 'dns:transfer'

export interface PermissionGroup {
  id: string
  name: string
  grants: Permission[]
  scopes: string[]
}

/** Fixed ids so policies are portable between deployments. */
export const PERMISSION_GROUPS: PermissionGroup[] = [
  {
    id: 'c8fed203ed3043cba015a93ad1616f1f',
    name: 'Zone Read',
    grants: ['zone:read'],
    scopes: ['com.cloudflare.api.account.zone'],
  },
  {
    id: 'e6d2666161e84845a636613608cee8d5',
    name: 'Zone Write',
    grants: ['zone:read', 'zone:edit'],
    scopes: ['com.cloudflare.api.account.zone'],
  },
  {
    id: '82e64a83756745bbbb1c9c2701bf816b',
    name: 'DNS Read',
    grants: ['dns:read'],
    scopes: ['com.cloudflare.api.account.zone'],
  },
  {
    id: '4755a26eedb94da69e1066d98aa820be',
    name: 'DNS Write',
    grants: ['dns:read', 'dns:edit'],
    scopes: ['com.cloudflare.api.account.zone'],
  },
  {
    id: '686d18d5ac6c441c867cbf6771e58a0a',
    name: 'API Tokens Write',
    grants: ['tokens:edit'],
    scopes: ['com.cloudflare.api.account'],
  },
  {
    id: '5f2a8f0c3b7e4d1a9c6e2b8d4f0a7c31',
    name: 'Zone Transfer Relay',
    grants: ['dns:transfer'],
    scopes: ['com.cloudflare.api.account.zone'],
  },
]

export function findPermissionGroup(ref: {
  id?: string
  name?: string
}): PermissionGroup | undefined {
  return PERMISSION_GROUPS.find(
    (g) =>
      (ref.id !== undefined && g.id === ref.id) ||
      (ref.name !== undefined && g.name.toLowerCase() === ref.name.toLowerCase())
  )
}

/** A token's effective grants: what it may do, and on which accounts / zones. */
export interface Grant {
  permissions: Set<Permission>
  /** Account ids whose every zone is in scope. */
  accounts: Set<string>
  /** Individual zone ids in scope. */
  zones: Set<string>
  /** Every account and zone (resource key `*`). */
  everything: boolean
}

export interface Principal {
  /** Token id recorded in the audit log; 'dev' for the local development token. */
  tokenId: string
  admin: boolean
  grants: Grant[]
  /** When the token stops working (ISO 8601); null: never. Bounds the tokens it may make. */
  expiresOn: string | null
}

declare module '../http/app-env.ts' {
  interface AppVariables {
    /** Who is calling, set by `authenticate` (auth/authenticate.ts). */
    principal: Principal
  }
}

export interface Scope {
  accountId?: string
  zoneId?: string
}

/**
 * Whether `p` may relay for a DNS front at all (Zone Transfer Relay on some resource, or an
 * administrator); the zone's own scope is checked once the relayed message names it.
 */
export function mayRelayForFront(p: Principal): boolean {
  return p.admin || p.grants.some((g) => g.permissions.has('dns:transfer'))
}

export function allows(p: Principal, perm: Permission, scope: Scope): boolean {
  if (p.admin) return true
  return p.grants.some(
    (g) =>
      g.permissions.has(perm) &&
      (g.everything ||
        (scope.accountId !== undefined && g.accounts.has(scope.accountId)) ||
        (scope.zoneId !== undefined && g.zones.has(scope.zoneId)))
  )
}
