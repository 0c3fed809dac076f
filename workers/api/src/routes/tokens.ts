/**
 * @module API tokens: verify, create, list, get, delete, and the permission groups policies may use.
 * Served both as user tokens (/user/tokens) and account tokens (/accounts/{id}/tokens).
 */
import { eq } from 'drizzle-orm'
import { Hono, type Context } from 'hono'
import { z } from 'zod'
import { allows, PERMISSION_GROUPS } from '../auth/permissions.ts'
import { normalizePolicies, policySchema, type Policy } from '../auth/policies.ts'
import { hashToken, newTokenSecret } from '../auth/secrets.ts'
import { apiTokens } from '../db/schema.ts'
import { ApiError, Codes } from '../http/api-error.ts'
import type { AppEnv } from '../http/app-env.ts'
import { readBody } from '../http/body.ts'
import { ok, okList, resultInfo } from '../http/envelope.ts'
import { isId, newId, nowIso } from '../http/ids.ts'

export const tokensApp = new Hono<AppEnv>()

type TokenRow = typeof apiTokens.$inferSelect

export const createSchema = z.object({
  name: z.string().min(1).max(120),
  policies: z.array(policySchema).min(1, 'a token needs at least one policy'),
  expires_on: z.iso.datetime().optional(),
  not_before: z.iso.datetime().optional(),
})

function tokenToApi(t: TokenRow): Record<string, unknown> {
  return {
    id: t.id,
    name: t.name,
    status: t.status,
    issued_on: t.issuedOn,
    modified_on: t.modifiedOn,
    expires_on: t.expiresOn ?? undefined,
    last_used_on: t.lastUsedOn ?? undefined,
    policies: JSON.parse(t.policies) as Policy[],
  }
}

/** Creating or reading tokens needs the API Tokens permission (or the dev token) on the account. */
function requireTokenAdmin(c: Context<AppEnv>): void {
  const accountId = c.req.param('account_id')
  const p = c.var.principal
  if (p.admin) return
  if (accountId !== undefined && allows(p, 'tokens:edit', { accountId })) return
  if (accountId === undefined && p.grants.some((g) => g.permissions.has('tokens:edit'))) return
  throw new ApiError(403, Codes.unauthenticated, 'Authentication error: this token cannot manage API tokens')
}

tokensApp.get('/verify', (c) => {
  const p = c.var.principal
  return ok(c, { id: p.tokenId, status: 'active' })
})

tokensApp.get('/permission_groups', (c) =>
  okList(c, PERMISSION_GROUPS.map((g) => ({ id: g.id, name: g.name, scopes: g.scopes })), resultInfo(1, PERMISSION_GROUPS.length, PERMISSION_GROUPS.length, PERMISSION_GROUPS.length))
)

tokensApp.post('/', async (c) => {
  requireTokenAdmin(c)
  const body = await readBody(c, createSchema)
  const policies = normalizePolicies(body.policies)
  const secret = newTokenSecret()
  const now = nowIso()
  const row: TokenRow = {
    id: newId(),
    name: body.name,
    tokenHash: await hashToken(secret),
    status: 'active',
    policies: JSON.stringify(policies),
    issuedOn: now,
    modifiedOn: now,
    expiresOn: body.expires_on ?? null,
    lastUsedOn: null,
  }
  await c.var.db.insert(apiTokens).values(row)
  return ok(c, { ...tokenToApi(row), value: secret })
})

tokensApp.get('/', async (c) => {
  requireTokenAdmin(c)
  const rows = await c.var.db.select().from(apiTokens).orderBy(apiTokens.issuedOn).all()
  return okList(c, rows.map(tokenToApi), resultInfo(1, Math.max(rows.length, 1), rows.length, rows.length))
})

function tokenId(c: Context<AppEnv>): string {
  const id = c.req.param('token_id') ?? ''
  if (!isId(id)) throw ApiError.badRequest(Codes.tokenNotFound, 'Invalid token identifier')
  return id
}

tokensApp.get('/:token_id{[^/]+}', async (c) => {
  requireTokenAdmin(c)
  const row = await c.var.db.select().from(apiTokens).where(eq(apiTokens.id, tokenId(c))).get()
  if (!row) throw new ApiError(404, Codes.tokenNotFound, 'Token not found')
  return ok(c, tokenToApi(row))
})

tokensApp.delete('/:token_id{[^/]+}', async (c) => {
  requireTokenAdmin(c)
  const id = tokenId(c)
  const row = await c.var.db.select({ id: apiTokens.id }).from(apiTokens).where(eq(apiTokens.id, id)).get()
  if (!row) throw new ApiError(404, Codes.tokenNotFound, 'Token not found')
  await c.var.db.delete(apiTokens).where(eq(apiTokens.id, id))
  return ok(c, { id })
})
