/**
 * @module Private keys at rest: AES-256-GCM under a key derived (HKDF-SHA-256) from the
 * deployment's secret, bound to the zone id (as associated data), so a sealed key copied to
 * another zone does not open. The sealed text is `v1.<iv>.<ciphertext>` (base64).
 */
import { fromBase64, toBase64 } from './bytes.ts'

export class SealError extends Error {
  override readonly name = 'SealError'
}

const encoder = new TextEncoder()
const INFO = encoder.encode('edgedns dnssec private key v1')
/** A secret shorter than this is refused: it would make the sealing key guessable. */
export const MIN_SECRET_LENGTH = 16

async function sealingKey(secret: string): Promise<CryptoKey> {
  if (secret.length < MIN_SECRET_LENGTH)
    throw new SealError(
      `the key-encryption secret must be at least ${MIN_SECRET_LENGTH} characters`
    )
  const base = await crypto.subtle.importKey('raw', encoder.encode(secret), 'HKDF', false, [
    'deriveKey',
  ])
  return crypto.subtle.deriveKey(
    { name: 'HKDF', hash: 'SHA-256', salt: new Uint8Array(32), info: INFO },
    base,
    { name: 'AES-GCM', length: 256 },
    false,
    ['encrypt', 'decrypt']
  )
}

export async function sealPrivateKey(
  pkcs8: Uint8Array,
  secret: string,
  zoneId: string
): Promise<string> {
  const iv = crypto.getRandomValues(new Uint8Array(12))
  const key = await sealingKey(secret)
  const ct = await crypto.subtle.encrypt(
    { name: 'AES-GCM', iv, additionalData: encoder.encode(zoneId) },
    key,
    pkcs8
  )
  return `v1.${toBase64(iv)}.${toBase64(new Uint8Array(ct))}`
}

export async function openPrivateKey(
  sealed: string,
  secret: string,
  zoneId: string
): Promise<Uint8Array> {
  const [version, iv, ct] = sealed.split('.')
  if (version !== 'v1' || !iv || !ct) throw new SealError('sealed key has an unknown format')
  const key = await sealingKey(secret)
  try {
    const pt = await crypto.subtle.decrypt(
      { name: 'AES-GCM', iv: fromBase64(iv), additionalData: encoder.encode(zoneId) },
      key,
      fromBase64(ct)
    )
    return new Uint8Array(pt)
  } catch {
    // Never say more: the message must not help guess the secret.
    throw new SealError('sealed key does not open with this secret for this zone')
  }
}
