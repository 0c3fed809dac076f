/**
 * @module Token secrets: generation and hashing. Only hashes are stored.
 */

export function newTokenSecret(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(30))
  return btoa(String.fromCharCode(...bytes))
    .replaceAll('+', '-')
    .replaceAll('/', '_')
}

export async function hashToken(secret: string): Promise<string> {
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(secret))
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, '0')).join('')
}

/**
 * Compares two secrets in constant time: both are hashed to 32 bytes first, so neither the
 * position of the first difference nor a length difference shows in the timing.
 */
export async function secretsEqual(a: string, b: string): Promise<boolean> {
  const encode = (s: string) => crypto.subtle.digest('SHA-256', new TextEncoder().encode(s))
  const [da, db] = await Promise.all([encode(a), encode(b)])
  return crypto.subtle.timingSafeEqual(da, db)
}
