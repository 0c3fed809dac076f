/**
 * @module A zone's DNSSEC state as stored in `zones.dnssec` (JSON), what the builder publishes from
 * it into the zone's metadata, and the status the API reports.
 */
import type { ZoneDnssec } from '@edgedns/kv-layout'

export interface StoredKey {
  tag: number
  /** DNSKEY public key field (base64). */
  public_key: string
  /** The private key sealed with the DNSSEC_KEY_ENCRYPTION_KEY secret (`@edgedns/dnssec`). */
  sealed: string
  created_on: string
}

export interface DnssecState {
  /** What was asked last: signing on, or off (with a grace period until `until`). */
  status: 'active' | 'disabled'
  /** Oldest first; two during a rollover. Every key is published and signs. */
  keys: StoredKey[]
  modified_on: string
  /** Change-log sequence of the last change: the change is live once the builder has built it. */
  seq: number
  /** Disabled: unix seconds until which the zone still publishes its keys and signs. */
  until?: number
}

export type ReportedStatus = 'active' | 'pending' | 'disabled' | 'pending-disabled'

export function parseDnssecState(text: string | null | undefined): DnssecState | null {
  if (!text) return null
  const state = JSON.parse(text) as DnssecState
  return Array.isArray(state.keys) ? state : null
}

/** What readers need (`ZoneMeta.dnssec`): present while the zone is signed or winding down. */
export function dnssecMeta(state: DnssecState | null): ZoneDnssec | undefined {
  if (!state || state.keys.length === 0) return undefined
  if (state.status === 'disabled' && state.until === undefined) return undefined
  const keys = state.keys.map((k) => ({ tag: k.tag, publicKey: k.public_key, sealed: k.sealed }))
  return state.status === 'disabled' ? { keys, until: state.until! } : { keys }
}

/**
 * Cloudflare's statuses: `pending` until the builder has published the keys, `active` after;
 * `pending-disabled` while a disabled zone still signs (its grace period), `disabled` after.
 */
export function reportedStatus(
  state: DnssecState | null,
  builtSeq: number,
  nowSeconds: number
): ReportedStatus {
  if (!state || state.keys.length === 0) return 'disabled'
  if (state.status === 'active') return builtSeq >= state.seq ? 'active' : 'pending'
  return state.until !== undefined && nowSeconds < state.until ? 'pending-disabled' : 'disabled'
}
