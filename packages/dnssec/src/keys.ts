/**
 * @module The zone's combined signing key (CSK): ECDSA P-256 with SHA-256 (algorithm 13, RFC
 * 6605) through WebCrypto; its DNSKEY rdata, key tag (RFC 4034 App. B) and DS (SHA-256, RFC 4509).
 */
import { concatBytes, dsDigestInput, encodeRdata } from '@edgedns/dns-wire'
import { fromBase64, toBase64, toHex } from './bytes.ts'

export const ALGORITHM = 13
export const KEY_TYPE = 'ECDSAP256SHA256'
/** Zone key + secure entry point: one key signs everything (a CSK). */
export const CSK_FLAGS = 257
export const DIGEST_TYPE = 2
export const DIGEST_ALGORITHM = 'SHA256'
const PROTOCOL = 3
const EC = { name: 'ECDSA', namedCurve: 'P-256' } as const

export interface GeneratedKey {
  /** 64 octets X ‖ Y, base64: the DNSKEY public key field. */
  publicKey: string
  /** PKCS #8 of the private key. Seal it before it is stored anywhere. */
  privatePkcs8: Uint8Array
}

export async function generateSigningKey(): Promise<GeneratedKey> {
  const pair = (await crypto.subtle.generateKey(EC, true, ['sign', 'verify'])) as CryptoKeyPair
  const raw = new Uint8Array((await crypto.subtle.exportKey('raw', pair.publicKey)) as ArrayBuffer)
  const pkcs8 = new Uint8Array(
    (await crypto.subtle.exportKey('pkcs8', pair.privateKey)) as ArrayBuffer
  )
  // The raw export is the uncompressed point 0x04 ‖ X ‖ Y; DNSKEY carries X ‖ Y.
  return { publicKey: toBase64(raw.subarray(1)), privatePkcs8: pkcs8 }
}

/** Generations tried for a key whose tag no other key of the zone has. */
export const KEY_TAG_ATTEMPTS = 16

/** No generated key had a free tag in KEY_TAG_ATTEMPTS tries. */
export class KeyTagCollision extends Error {
  override name = 'KeyTagCollision'
}

/**
 * A new signing key whose key tag is none of `taken` (the zone's other keys). A key tag is 16 bits,
 * so two keys can share one (RFC 4034 App. B), and a zone's keys are told apart by tag (removal,
 * RRSIG key tag): on a collision the key is generated again.
 */
export async function generateSigningKeyAvoiding(
  taken: Iterable<number>,
  generate: () => Promise<GeneratedKey> = generateSigningKey
): Promise<GeneratedKey & { tag: number }> {
  const used = new Set(taken)
  for (let i = 0; i < KEY_TAG_ATTEMPTS; i++) {
    const key = await generate()
    const tag = keyTag(key.publicKey)
    if (!used.has(tag)) return { ...key, tag }
  }
  throw new KeyTagCollision(
    `no generated key had a tag other than ${[...used].join(', ')} in ${KEY_TAG_ATTEMPTS} tries`
  )
}

export async function importPrivateKey(pkcs8: Uint8Array): Promise<CryptoKey> {
  return crypto.subtle.importKey('pkcs8', pkcs8, EC, false, ['sign'])
}

export async function importPublicKey(publicKey: string): Promise<CryptoKey> {
  return crypto.subtle.importKey(
    'raw',
    concatBytes([Uint8Array.of(4), fromBase64(publicKey)]),
    EC,
    false,
    ['verify']
  )
}

/** DNSKEY presentation rdata of a CSK. */
export function dnskeyRdata(publicKey: string): string {
  return `${CSK_FLAGS} ${PROTOCOL} ${ALGORITHM} ${publicKey}`
}

/** RFC 4034 Appendix B key tag of DNSKEY wire rdata. */
export function keyTag(publicKey: string): number {
  const rdata = encodeRdata(48, dnskeyRdata(publicKey))
  let ac = 0
  for (let i = 0; i < rdata.length; i++) ac += i & 1 ? rdata[i]! : rdata[i]! << 8
  ac += (ac >> 16) & 0xffff
  return ac & 0xffff
}

/** SHA-256 DS digest (hex, uppercase as Cloudflare shows it) of the zone's DNSKEY. */
export async function dsDigest(zone: string, publicKey: string): Promise<string> {
  const data = dsDigestInput(zone, dnskeyRdata(publicKey))
  return toHex(new Uint8Array(await crypto.subtle.digest('SHA-256', data))).toUpperCase()
}

/** The DS record in presentation format, as a registrar takes it. */
export async function dsRecord(zone: string, publicKey: string): Promise<string> {
  return `${zone}. 3600 IN DS ${keyTag(publicKey)} ${ALGORITHM} ${DIGEST_TYPE} ${await dsDigest(zone, publicKey)}`
}
