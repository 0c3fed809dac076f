/**
 * @module The first admin token of a fresh deployment: a random secret, shown once, of which only
 * the SHA-256 hash is stored (as the API stores every token). Web Crypto only, so the same code
 * runs in Node (scripts/bootstrap.mjs) and in workerd (the test that bootstraps a fresh database).
 */

/** Name of the token the bootstrap creates. */
const BOOTSTRAP_TOKEN_NAME = 'Bootstrap admin token'

const hex = (bytes) => [...bytes].map((b) => b.toString(16).padStart(2, '0')).join('')

/** A new token: 32-hex id, 240-bit URL-safe secret (the API's own format), and its hash. */
export async function newBootstrapToken() {
  const id = hex(crypto.getRandomValues(new Uint8Array(16)))
  const raw = crypto.getRandomValues(new Uint8Array(30))
  const secret = btoa(String.fromCharCode(...raw))
    .replaceAll('+', '-')
    .replaceAll('/', '_')
  const hash = hex(
    new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(secret)))
  )
  return { id, secret, hash }
}

/**
 * The one SQL statement the bootstrap runs (`wrangler d1 execute --remote --command`): inserts an
 * active admin token unless an active admin token exists already (`force` inserts anyway, for a
 * lost token), and returns the new token's id (no row: nothing was inserted). Every value is checked to be hex or ISO time, so nothing can break out of the quotes.
 */
export function bootstrapStatement({ id, hash, now = new Date().toISOString(), force = false }) {
  if (!/^[0-9a-f]{32}$/.test(id)) throw new Error(`bootstrap: bad token id ${id}`)
  if (!/^[0-9a-f]{64}$/.test(hash)) throw new Error('bootstrap: bad token hash')
  if (!/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z$/.test(now))
    throw new Error(`bootstrap: bad time ${now}`)
  const guard = force
    ? ''
    : `\nWHERE NOT EXISTS (SELECT 1 FROM api_tokens WHERE admin = 1 AND status = 'active')`
  return (
    'INSERT INTO api_tokens (id, name, token_hash, status, policies, issued_on, modified_on, admin)\n' +
    `SELECT '${id}', '${BOOTSTRAP_TOKEN_NAME}', '${hash}', 'active', '[]', '${now}', '${now}', 1${guard}\nRETURNING id;`
  )
}

/**
 * What the bootstrap prints: the secret (once) and a request to try it with, against `url` (the
 * API's base URL) when it is known.
 */
export function bootstrapMessage({ id, secret, url }) {
  const base = url?.replace(/\/+$/, '')
  const tryIt = base
    ? `try: curl -H 'Authorization: Bearer ${secret}' ${base}/client/v4/accounts`
    : 'run with --url set to the API URL `pnpm run deploy` printed for a ready curl command'
  return `Admin token (shown once, store it now; only its hash is kept):

  ${secret}

  token id ${id}
  ${tryIt}`
}
