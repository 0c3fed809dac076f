/**
 * @module Audit entries for API token changes, written in the same D1 batch as the change. They
 * name who acted (the calling token and its address), the token changed (id and name) and its
 * policies and validity before and after; never a token's secret or its hash.
 */
import type { Context } from 'hono'
import { auditLogs } from '../db/schema.ts'
import type { AppEnv } from '../http/app-env.ts'
import { newId, nowIso } from '../http/ids.ts'

export type TokenAuditAction = 'token_create' | 'token_delete'

/**
 * The entry for `action` on a token: `shown` is the token as the API shows it (never with its
 * secret), recorded as the state after a create and before a delete.
 */
export function tokenAuditEntry(
  c: Context<AppEnv>,
  action: TokenAuditAction,
  token: { id: string; name: string; accountId: string | null },
  shown: Record<string, unknown>
): typeof auditLogs.$inferInsert {
  const { value: _secret, ...state } = shown
  const json = JSON.stringify(state)
  return {
    id: newId(),
    accountId: token.accountId,
    action,
    actorTokenId: c.var.principal.tokenId,
    actorIp: c.req.header('cf-connecting-ip') ?? null,
    resourceType: 'api_token',
    resourceId: token.id,
    resourceName: token.name,
    oldValue: action === 'token_delete' ? json : null,
    newValue: action === 'token_create' ? json : null,
    createdOn: nowIso(),
  }
}
