/**
 * @module Bearer-token authentication middleware: resolves the request's Principal.
 */
import { eq } from 'drizzle-orm'
import { createMiddleware } from 'hono/factory'
import { accounts, apiTokens } from '../db/schema.ts'
import { ApiError, Codes } from '../http/api-error.ts'
import type { AppEnv } from '../http/app-env.ts'
import type { Policy } from './policies.ts'
import { policiesToGrants } from './policies.ts'
import { clientAddress, failedAuthenticationOverBudget, rateLimited } from '../http/rate-limit.ts'
import {
  DEFAULT_API_RATE_LIMIT,
  rateLimitPolicy,
  spendTokenRequest,
} from '../http/token-rate-limit.ts'
import { noteTokenUse } from './last-used.ts'
import { hashToken, secretsEqual } from './secrets.ts'
import { VerifiedTokens } from './verified-tokens.ts'

/** `Bearer <token68>`: the scheme in any case (RFC 9110 §11.1), one or more spaces before the token. */
const BEARER = /^bearer +([A-Za-z0-9._~+/=-]+)$/i

/** The token with this hash and its account's rate limit; null unless the token is active. */
async function readToken(db: AppEnv['Variables']['db'], hash: string) {
  const found = await db
    .select({ token: apiTokens, rateLimit: accounts.apiRateLimit })
    .from(apiTokens)
    .leftJoin(accounts, eq(accounts.id, apiTokens.accountId))
    .where(eq(apiTokens.tokenHash, hash))
    .get()
  return found?.token.status === 'active' ? found : null
}

/** Verified tokens of this isolate; token and account changes call its `forgetAll`. */
export const verifiedTokens = new VerifiedTokens<
  NonNullable<Awaited<ReturnType<typeof readToken>>>
>()

export const authenticate = createMiddleware<AppEnv>(async function authenticate(c, next) {
  const header = c.req.header('authorization')
  if (header === undefined) {
    if (c.req.header('x-auth-key') !== undefined || c.req.header('x-auth-email') !== undefined) {
      throw new ApiError(
        403,
        Codes.unauthenticated,
        'Authentication error: global API keys are not supported; use an API token (Authorization: Bearer <token>)'
      )
    }
    throw new ApiError(
      403,
      Codes.unauthenticated,
      'Authentication error: missing Authorization: Bearer <token> header'
    )
  }
  const m = BEARER.exec(header.trim())
  if (!m) {
    throw new ApiError(400, Codes.invalidHeaders, 'Invalid request headers', {
      errorChain: [
        { code: Codes.authorizationFormat, message: 'Invalid format for Authorization header' },
      ],
    })
  }
  const secret = m[1]!
  const dev = c.env.DEV_API_TOKEN
  if (dev && (await secretsEqual(secret, dev))) {
    // Local development only, and exempt from the per-token rate limit.
    c.set('principal', { tokenId: 'dev', admin: true, grants: [], expiresOn: null })
    return next()
  }
  // Looked up by hash: the timing of the index lookup depends on the hash, never on the secret.
  // Every presented token is looked up, whatever its address's record of failures: a valid token
  // is never refused for the address it comes from.
  // A token verified recently in this isolate is not read again before the request goes on
  // (auth/verified-tokens.ts): the home database may be busy with another request's long commit.
  const startedAt = performance.now()
  const hash = await hashToken(secret)
  const background = (work: Promise<unknown>) => {
    try {
      c.executionCtx.waitUntil(work)
    } catch {
      // No execution context (the app driven directly): the work completes on its own.
    }
  }
  const found = await verifiedTokens.get(hash, () => readToken(c.var.db, hash), background)
  const authMs = performance.now() - startedAt
  const row = found?.token
  const now = Date.now()
  const expired = row?.expiresOn != null && Date.parse(row.expiresOn) <= now
  const early = row?.notBefore != null && Date.parse(row.notBefore) > now
  if (!row || expired || early) {
    const address = clientAddress(c.req.raw.headers)
    if (await failedAuthenticationOverBudget(c.env.AUTH_FAILURE_LIMITER, address))
      throw rateLimited('failed authentications from this address')
    throw new ApiError(403, Codes.invalidToken, 'Invalid access token')
  }
  // admin: the bootstrap token of a fresh deployment (scripts/bootstrap.mjs) can do everything.
  c.set('principal', {
    tokenId: row.id,
    admin: row.admin,
    grants: policiesToGrants(JSON.parse(row.policies) as Policy[]),
    expiresOn: row.expiresOn,
  })
  const perWindow = found?.rateLimit ?? DEFAULT_API_RATE_LIMIT
  await spendTokenRequest(c.env.TOKEN_LIMITER, row.id, perWindow)
  // At most once an hour per token and isolate, after the response (auth/last-used.ts).
  noteTokenUse(c.var.db, row, background)
  await next()
  c.header('ratelimit-policy', rateLimitPolicy(perWindow))
  // The token lookup's own time: what a busy home database adds to a request.
  c.header('server-timing', `auth;dur=${authMs.toFixed(1)}`, { append: true })
})
