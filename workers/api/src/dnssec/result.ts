/**
 * @module The Cloudflare-shaped result of `/zones/{id}/dnssec` (the newest key's DNSKEY and DS:
 * during a rollover that is the key to give the registrar), plus `keys`, every published key.
 */
import {
  ALGORITHM,
  CSK_FLAGS,
  DIGEST_ALGORITHM,
  DIGEST_TYPE,
  KEY_TYPE,
  dsDigest,
  dsRecord,
} from '@edgedns/dnssec'
import type { DnssecState, ReportedStatus, StoredKey } from './state.ts'

export interface DnssecResult {
  status: ReportedStatus
  algorithm: string | null
  key_type: string | null
  flags: number | null
  key_tag: number | null
  public_key: string | null
  digest_algorithm: string | null
  digest_type: string | null
  digest: string | null
  ds: string | null
  modified_on: string | null
  dnssec_multi_signer: boolean
  dnssec_presigned: boolean
  dnssec_use_nsec3: boolean
  keys: KeyResult[]
}

interface KeyResult {
  key_tag: number
  public_key: string
  digest: string
  ds: string
  created_on: string
}

async function keyResult(zone: string, key: StoredKey): Promise<KeyResult> {
  return {
    key_tag: key.tag,
    public_key: key.public_key,
    digest: await dsDigest(zone, key.public_key),
    ds: await dsRecord(zone, key.public_key),
    created_on: key.created_on,
  }
}

export async function dnssecResult(
  zone: string,
  state: DnssecState | null,
  status: ReportedStatus
): Promise<DnssecResult> {
  const flags = { dnssec_multi_signer: false, dnssec_presigned: false, dnssec_use_nsec3: false }
  const keys =
    status === 'disabled' || !state
      ? []
      : await Promise.all(state.keys.map((k) => keyResult(zone, k)))
  const newest = keys.at(-1)
  if (!newest) {
    const none = {
      algorithm: null,
      key_type: null,
      flags: null,
      key_tag: null,
      public_key: null,
      digest_algorithm: null,
      digest_type: null,
      digest: null,
      ds: null,
    }
    return { status, ...none, modified_on: state?.modified_on ?? null, ...flags, keys }
  }
  return {
    status,
    algorithm: String(ALGORITHM),
    key_type: KEY_TYPE,
    flags: CSK_FLAGS,
    key_tag: newest.key_tag,
    public_key: newest.public_key,
    digest_algorithm: DIGEST_ALGORITHM,
    digest_type: String(DIGEST_TYPE),
    digest: newest.digest,
    ds: newest.ds,
    modified_on: state!.modified_on,
    ...flags,
    keys,
  }
}
