/**
 * @module Accounts: list and get; admins may create accounts and set their batch limit and their
 * tokens' rate limit.
 */
import { eq } from 'drizzle-orm'
import { Hono, type Context } from 'hono'
import { z } from 'zod'
import { verifiedTokens } from '../auth/authenticate.ts'
import { jsonChunks } from '../db/json-chunks.ts'
import { accounts } from '../db/schema.ts'
import { ApiError, Codes } from '../http/api-error.ts'
import type { AppEnv } from '../http/app-env.ts'
import { queryParam } from '../http/query.ts'
import { readBody } from '../http/body.ts'
import { ok, okList, resultInfo } from '../http/envelope.ts'
import { newId, nowIso } from '../http/ids.ts'
import { intParam } from '../records/list-query.ts'
import {
  API_RATE_LIMIT_STEP,
  DEFAULT_API_RATE_LIMIT,
  MAX_API_RATE_LIMIT,
} from '../http/token-rate-limit.ts'

export const accountsApp = new Hono<AppEnv>()

type AccountRow = typeof accounts.$inferSelect

function accountToApi(a: AccountRow): Record<string, unknown> {
  return {
    id: a.id,
    name: a.name,
    type: 'standard',
    created_on: a.createdOn,
    settings: {
      enforce_twofactor: false,
      max_dns_batch_changes: a.maxBatchChanges,
      api_rate_limit: a.apiRateLimit ?? DEFAULT_API_RATE_LIMIT,
    },
  }
}

/**
 * The most changes per batch an account may be given: a batch (and an import) of this many fits a
 * JS heap capped at 100 MB in the API isolate; twice as many does not (BENCHMARKS.md, API isolate).
 */
const MAX_BATCH_CEILING = 50_000
export const createSchema = z.object({ name: z.string().min(1).max(100) })
export const editSchema = z.object({
  name: z.string().min(1).max(100).optional(),
  settings: z
    .object({
      max_dns_batch_changes: z.number().int().min(1).max(MAX_BATCH_CEILING).nullable(),
      api_rate_limit: z
        .number()
        .int()
        .min(API_RATE_LIMIT_STEP)
        .max(MAX_API_RATE_LIMIT)
        .multipleOf(API_RATE_LIMIT_STEP, {
          error: `api_rate_limit must be a multiple of ${API_RATE_LIMIT_STEP}`,
        })
        .nullable()
        .meta({
          description: `Requests each of the account's API tokens may make per 5 minutes (a multiple of ${API_RATE_LIMIT_STEP}, enforced as a fifth of it per minute); null restores the default of ${DEFAULT_API_RATE_LIMIT}`,
        }),
    })
    .partial()
    .optional(),
})

function requireAdmin(admin: boolean): void {
  if (!admin)
    throw new ApiError(
      403,
      Codes.unauthenticated,
      'Authentication error: only an administrator token can manage accounts'
    )
}

/**
 * Whether the token reaches an account: an administrator, a grant on every account or on that
 * account, or a grant on one of that account's zones.
 */
type Reach = (accountId: string) => boolean

async function accountReach(c: Context<AppEnv>): Promise<Reach> {
  const p = c.var.principal
  const zoneIds = [...new Set(p.grants.flatMap((g) => [...g.zones]))]
  const zoneAccounts = new Set<string>()
  for (const chunk of jsonChunks(zoneIds)) {
    // The directory knows every shard's zones; `zones` here are shard 0's (rows older than it).
    const { results } = await c.env.DB.prepare(
      `SELECT account_id FROM directory_zones WHERE zone_id IN (SELECT value FROM json_each(?1))
       UNION SELECT account_id FROM zones WHERE id IN (SELECT value FROM json_each(?1))`
    )
      .bind(chunk)
      .all<{ account_id: string }>()
    for (const r of results) zoneAccounts.add(r.account_id)
  }
  return (id) =>
    p.admin || zoneAccounts.has(id) || p.grants.some((g) => g.everything || g.accounts.has(id))
}

accountsApp.get('/', async (c) => {
  const page = intParam(queryParam(c, 'page'), 'page', 1, 1, Number.MAX_SAFE_INTEGER)
  const perPage = intParam(queryParam(c, 'per_page'), 'per_page', 20, 1, 50)
  const reaches = await accountReach(c)
  const all = (await c.var.db.select().from(accounts).orderBy(accounts.name).all()).filter((a) =>
    reaches(a.id)
  )
  const slice = all.slice((page - 1) * perPage, page * perPage)
  return okList(c, slice.map(accountToApi), resultInfo(page, perPage, slice.length, all.length))
})

accountsApp.post('/', async (c) => {
  requireAdmin(c.var.principal.admin)
  const body = await readBody(c, createSchema)
  const row: AccountRow = {
    id: newId(),
    name: body.name,
    maxBatchChanges: null,
    apiRateLimit: null,
    createdOn: nowIso(),
  }
  await c.var.db.insert(accounts).values(row)
  return ok(c, accountToApi(row))
})

accountsApp.get('/:account_id{[0-9a-f]{32}}', async (c) => {
  const row = await c.var.db
    .select()
    .from(accounts)
    .where(eq(accounts.id, c.req.param('account_id')))
    .get()
  // Unknown and unreachable accounts answer alike, so ids of other accounts cannot be probed.
  if (!row || !(await accountReach(c))(row.id))
    throw new ApiError(404, Codes.accountNotFound, 'Account not found')
  return ok(c, accountToApi(row))
})

accountsApp.put('/:account_id{[0-9a-f]{32}}', async (c) => {
  requireAdmin(c.var.principal.admin)
  const body = await readBody(c, editSchema)
  const id = c.req.param('account_id')
  const row = await c.var.db.select().from(accounts).where(eq(accounts.id, id)).get()
  if (!row) throw new ApiError(404, Codes.accountNotFound, 'Account not found')
  const next: AccountRow = {
    ...row,
    name: body.name ?? row.name,
    maxBatchChanges:
      body.settings?.max_dns_batch_changes !== undefined
        ? body.settings.max_dns_batch_changes
        : row.maxBatchChanges,
    apiRateLimit:
      body.settings?.api_rate_limit !== undefined ? body.settings.api_rate_limit : row.apiRateLimit,
  }
  await c.var.db.update(accounts).set(next).where(eq(accounts.id, id))
  // Verified tokens carry their account's rate limit: this isolate reads it again at once.
  verifiedTokens.forgetAll()
  return ok(c, accountToApi(next))
})
