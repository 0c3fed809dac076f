/**
 * @module TSIG keys (RFC 8945): the algorithms supported over WebCrypto, a key parsed from dig's
 * `-y` syntax, its WebCrypto HMAC key (imported once per key), and names in canonical form.
 */
import { NameError, parseName } from '@edgedns/dns-wire'

export type TsigAlgorithm = 'hmac-sha256' | 'hmac-sha512'

/** A shared secret: `name` and `algorithm` are compared canonically (lowercase, no trailing dot). */
export interface TsigKey {
  name: string
  algorithm: TsigAlgorithm
  secret: Uint8Array
}

/** WebCrypto's hash and the MAC length of each algorithm. */
export const HASHES: Record<TsigAlgorithm, { hash: string; length: number }> = {
  'hmac-sha256': { hash: 'SHA-256', length: 32 },
  'hmac-sha512': { hash: 'SHA-512', length: 64 },
}

/** Canonical text of a name: lowercase, no trailing dot. */
export function canonical(name: string): string {
  return name.toLowerCase().replace(/\.$/, '')
}

/** Whether `name` is a supported algorithm. */
function isAlgorithm(name: string): name is TsigAlgorithm {
  return Object.hasOwn(HASHES, name)
}

/** Parses `[alg:]name:base64secret` (dig's `-y` syntax); the algorithm defaults to hmac-sha256. */
export function parseTsigKey(spec: string): TsigKey {
  const parts = spec.split(':')
  if (parts.length === 2) parts.unshift('hmac-sha256')
  const [alg, name, secret] = parts
  if (parts.length !== 3 || !alg || !name || !secret) {
    throw new RangeError('a TSIG key is written [algorithm:]name:base64-secret')
  }
  const algorithm = canonical(alg)
  if (!isAlgorithm(algorithm)) throw new RangeError(`unsupported TSIG algorithm ${alg}`)
  let bytes: Uint8Array
  try {
    bytes = Uint8Array.from(atob(secret), (c) => c.charCodeAt(0))
  } catch {
    throw new RangeError('the TSIG secret is not base64')
  }
  if (bytes.length === 0) throw new RangeError('the TSIG secret is empty')
  try {
    parseName(canonical(name))
  } catch (err) {
    if (err instanceof NameError) throw new RangeError(`bad TSIG key name: ${err.message}`)
    throw err
  }
  return { name: canonical(name), algorithm, secret: bytes }
}

/** WebCrypto keys by TSIG key: imported once each. */
const cryptoKeys = new WeakMap<TsigKey, Promise<CryptoKey>>()

/** The WebCrypto HMAC key of `key`. */
export function cryptoKey(key: TsigKey): Promise<CryptoKey> {
  let found = cryptoKeys.get(key)
  if (!found) {
    found = crypto.subtle.importKey(
      'raw',
      key.secret,
      { name: 'HMAC', hash: HASHES[key.algorithm].hash },
      false,
      ['sign', 'verify']
    )
    cryptoKeys.set(key, found)
  }
  return found
}
