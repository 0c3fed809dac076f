/**
 * @module Account audit logs (GET /accounts/{id}/audit_logs, and GET /user/audit_logs for an
 * administrator): who made or revoked which API token, newest first, in Cloudflare's audit-log
 * shape. Record changes have their own audit, per zone (routes/audit.ts).
 */
import { and, count, desc, eq, sql, type SQL } from 'drizzle-orm'
import { Hono, type Context } from 'hono'
import { allows } from '../auth/permissions.ts'
import { auditLogs } from '../db/schema.ts'
import { ApiError, Codes } from '../http/api-error.ts'
import type { AppEnv } from '../http/app-env.ts'
import { queryParam } from '../http/query.ts'
import { okList, resultInfo } from '../http/envelope.ts'
import { intParam } from '../records/list-query.ts'

export const auditLogsApp = new Hono<AppEnv>()

type AuditRow = typeof auditLogs.$inferSelect

const ACTIONS = new Set(['token_create', 'token_delete'])

function entryToApi(r: AuditRow): Record<string, unknown> {
  return {
    id: r.id,
    action: { type: r.action, result: true },
    actor: { id: r.actorTokenId, type: 'token', ip: r.actorIp ?? undefined },
    owner: { id: r.accountId },
    resource: { id: r.resourceId, type: r.resourceType, name: r.resourceName },
    interface: 'API',
    when: r.createdOn,
    oldValueJson: r.oldValue === null ? null : (JSON.parse(r.oldValue) as unknown),
    newValueJson: r.newValue === null ? null : (JSON.parse(r.newValue) as unknown),
  }
}

/**
 * The account whose log the caller may read: an administrator reads any (and every entry on
 * /user/audit_logs); a token reads its account's log with the API Tokens permission on it.
 */
function readableScope(c: Context<AppEnv>): SQL | undefined {
  const accountId = c.req.param('account_id')
  const p = c.var.principal
  if (accountId !== undefined && (p.admin || allows(p, 'tokens:edit', { accountId })))
    return eq(auditLogs.accountId, accountId)
  if (accountId === undefined && p.admin) return undefined
  throw new ApiError(
    403,
    Codes.unauthenticated,
    accountId === undefined
      ? 'Authentication error: read an account audit log under /accounts/{account_id}/audit_logs'
      : "Authentication error: reading this account's audit log needs the API Tokens permission on it"
  )
}

auditLogsApp.get('/', async (c) => {
  const scope = readableScope(c)
  const page = intParam(queryParam(c, 'page'), 'page', 1, 1, Number.MAX_SAFE_INTEGER)
  const perPage = intParam(queryParam(c, 'per_page'), 'per_page', 100, 1, 1000)
  const action = queryParam(c, 'action.type')
  if (action !== undefined && !ACTIONS.has(action))
    throw ApiError.badRequest(
      Codes.invalidRequest,
      `action.type must be one of ${[...ACTIONS].join(', ')}`
    )
  const where = and(scope, action === undefined ? undefined : eq(auditLogs.action, action))
  const [rows, total] = await c.var.db.batch([
    c.var.db
      .select()
      .from(auditLogs)
      .where(where)
      // rowid breaks ties in insertion order; both indexes end with it, so no sort is needed.
      .orderBy(desc(auditLogs.createdOn), desc(sql`rowid`))
      .limit(perPage)
      .offset((page - 1) * perPage),
    c.var.db.select({ n: count() }).from(auditLogs).where(where),
  ])
  return okList(c, rows.map(entryToApi), resultInfo(page, perPage, rows.length, total[0]?.n ?? 0))
})
