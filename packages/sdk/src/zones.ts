/**
 * @module Zones and their DNS settings; accounts (list, get).
 */
import { type Transport, withSeq } from './http.ts'
import { paginate } from './paginate.ts'
import type { Account, DnsSettings, Zone } from './types.ts'
import type { WithSeq } from './records.ts'

export interface ZoneFilter {
  name?: string
  status?: string
  /** Zone types, comma-separated (full, partial, secondary, internal); without it, all but internal. */
  type?: string
  'account.id'?: string
  'account.name'?: string
  /** Whether a zone must match all the filters above (default) or any of them. */
  match?: 'all' | 'any'
  order?: 'name' | 'status' | 'account.id' | 'account.name'
  direction?: 'asc' | 'desc'
}

/** The message code of an activation check that leaves the zone pending. */
export const ZONE_STILL_PENDING = 10005

/** The outcome of an activation check. */
export interface ActivationCheck {
  id: string
  /** True when the zone stays pending: its ownership is not proven yet. */
  pending: boolean
  /** What was looked up and what is missing, while the zone stays pending; else null. */
  message: string | null
}

export class Zones {
  private readonly t: Transport

  constructor(t: Transport) {
    this.t = t
  }

  list(filter: ZoneFilter = {}): AsyncGenerator<Zone, void, undefined> {
    return paginate((page) =>
      this.t.request<Zone[]>({
        method: 'GET',
        path: '/zones',
        query: { ...filter, page, per_page: 50 },
      })
    )
  }

  get(zoneId: string): Promise<Zone> {
    return this.t.result({ method: 'GET', path: `/zones/${zoneId}` })
  }

  /** Finds a zone by exact name; undefined when there is none. */
  async byName(name: string): Promise<Zone | undefined> {
    const wanted = name.toLowerCase().replace(/\.$/, '')
    // Every type: the list leaves internal zones out unless asked for them.
    const type = 'full,partial,secondary,internal'
    for await (const z of this.list({ name: wanted, type })) if (z.name === wanted) return z
    return undefined
  }

  async create(input: {
    name: string
    account?: { id: string }
    type?: Zone['type']
  }): Promise<WithSeq<Zone>> {
    const env = await this.t.request<Zone>({ method: 'POST', path: '/zones', json: input })
    return withSeq(env.result, env.changeSeq)
  }

  edit(
    zoneId: string,
    input: { paused?: boolean; type?: Zone['type']; vanity_name_servers?: string[] }
  ): Promise<Zone> {
    return this.t.result({ method: 'PATCH', path: `/zones/${zoneId}`, json: input })
  }

  delete(zoneId: string): Promise<{ id: string }> {
    return this.t.result({ method: 'DELETE', path: `/zones/${zoneId}` })
  }

  /**
   * Checks the ownership of a pending zone now (`PUT /zones/{id}/activation_check`): the zone
   * becomes active when its TXT record or delegation proves it, else it stays pending and
   * `message` says what is missing. An active zone answers `pending: false`. Rate limited per zone
   * (an EdgeDnsError with status 429).
   */
  async activationCheck(zoneId: string): Promise<ActivationCheck> {
    const env = await this.t.request<{ id: string }>({
      method: 'PUT',
      path: `/zones/${zoneId}/activation_check`,
    })
    const pending = env.messages.find((m) => m.code === ZONE_STILL_PENDING)
    return { id: env.result.id, pending: pending !== undefined, message: pending?.message ?? null }
  }

  dnsSettings(zoneId: string): Promise<DnsSettings> {
    return this.t.result({ method: 'GET', path: `/zones/${zoneId}/dns_settings` })
  }

  editDnsSettings(
    zoneId: string,
    input: Partial<Omit<DnsSettings, 'soa'>> & { soa?: Partial<DnsSettings['soa']> }
  ): Promise<DnsSettings> {
    return this.t.result({ method: 'PATCH', path: `/zones/${zoneId}/dns_settings`, json: input })
  }
}

export class Accounts {
  private readonly t: Transport

  constructor(t: Transport) {
    this.t = t
  }

  list(): AsyncGenerator<Account, void, undefined> {
    return paginate((page) =>
      this.t.request<Account[]>({ method: 'GET', path: '/accounts', query: { page, per_page: 50 } })
    )
  }

  get(accountId: string): Promise<Account> {
    return this.t.result({ method: 'GET', path: `/accounts/${accountId}` })
  }
}
