/**
 * @module Zone rows and their Cloudflare v4 representation.
 */
import { fqdn } from '@edgedns/records'
import type { zones } from '../db/schema.ts'

export type ZoneRow = typeof zones.$inferSelect

export function zoneToApi(z: ZoneRow, accountName: string): Record<string, unknown> {
  return {
    id: z.id,
    name: z.name,
    status:
      z.status === 'moving' || z.status === 'copying'
        ? z.activatedOn
          ? 'active'
          : 'pending'
        : z.status,
    paused: z.paused,
    type: z.type,
    development_mode: 0,
    name_servers: JSON.parse(z.nameServers) as string[],
    vanity_name_servers: JSON.parse(z.vanityNameServers) as string[],
    original_name_servers: null,
    original_registrar: null,
    original_dnshost: null,
    created_on: z.createdOn,
    modified_on: z.modifiedOn,
    activated_on: z.activatedOn,
    // The value of the TXT record `_edgedns-verify.<name>` that proves control of a pending zone.
    verification_key: z.verificationKey,
    meta: {
      step: 4,
      custom_certificate_quota: 0,
      page_rule_quota: 0,
      phishing_detected: false,
      dns_only: true,
    },
    owner: { id: null, type: 'account', name: accountName },
    account: { id: z.accountId, name: accountName },
    permissions: [],
    plan: {
      id: '0feeeeeeeeeeeeeeeeeeeeeeeeeeeeee',
      name: 'Edge DNS',
      price: 0,
      currency: 'USD',
      frequency: '',
      is_subscribed: true,
      can_subscribe: false,
      legacy_id: 'free',
      legacy_discount: false,
      externally_managed: false,
    },
  }
}

/**
 * DNS settings this platform has no switch for, at the values Cloudflare gives a zone that never
 * turned them on: no zone-wide CNAME flattening (per-record `settings.flatten_cname` exists), no
 * advanced name servers, not an internal zone, single provider, no secondary overrides.
 */
const FIXED_DNS_SETTINGS = {
  flatten_all_cnames: false,
  foundation_dns: false,
  internal_dns: {},
  multi_provider: false,
  secondary_overrides: false,
} as const

export function dnsSettingsToApi(z: ZoneRow): Record<string, unknown> {
  return {
    ...FIXED_DNS_SETTINGS,
    ns_ttl: z.nsTtl,
    soa: {
      mname: z.soaMname,
      rname: z.soaRname,
      refresh: z.soaRefresh,
      retry: z.soaRetry,
      expire: z.soaExpire,
      min_ttl: z.soaMinimum,
      ttl: z.soaTtl,
    },
    zone_mode: 'dns_only',
    nameservers: { type: 'custom.zone' },
    proxy_addresses: {
      ipv4: JSON.parse(z.proxyIpv4) as string[],
      ipv6: JSON.parse(z.proxyIpv6) as string[],
    },
  }
}

/** The zone's SOA rdata as served and exported: its SOA settings with its current serial. */
export function soaRdata(z: ZoneRow): string {
  return [
    fqdn(z.soaMname),
    fqdn(z.soaRname),
    z.serial,
    z.soaRefresh,
    z.soaRetry,
    z.soaExpire,
    z.soaMinimum,
  ].join(' ')
}
