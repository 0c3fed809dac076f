/**
 * @module An account's ACLs (`/accounts/{id}/secondary_dns/acls`): address ranges allowed to ask
 * its zones by AXFR/IXFR. Cloudflare's shape `{ id, name, ip_range }`; the range is stored and
 * answered in canonical form (network address, prefix length).
 */
import { z } from 'zod'
import { ApiError, Codes } from '../http/api-error.ts'
import { newId, nowIso } from '../http/ids.ts'
import { notFencedSql, refuseIfFenced, type AccountDb } from './account-db.ts'
import { cidrSchema } from './fields.ts'

/** The body of POST and PUT. */
export const aclSchema = z.object({
  name: z.string().trim().min(1, 'is required').max(255),
  ip_range: cidrSchema,
})
type AclInput = z.output<typeof aclSchema>

interface AclRow {
  id: string
  name: string
  ip_range: string
}

const COLUMNS = 'id, name, ip_range'

export function aclToApi(row: AclRow): Record<string, unknown> {
  return { id: row.id, name: row.name, ip_range: row.ip_range }
}

function notFound(id: string): ApiError {
  return new ApiError(404, Codes.aclNotFound, `ACL ${id} not found in this account`)
}

export async function listAcls({ db, accountId }: AccountDb): Promise<AclRow[]> {
  const { results } = await db
    .prepare(`SELECT ${COLUMNS} FROM transfer_acls WHERE account_id = ?1 ORDER BY name, id`)
    .bind(accountId)
    .all<AclRow>()
  return results
}

export async function getAcl({ db, accountId }: AccountDb, id: string): Promise<AclRow> {
  const row = await db
    .prepare(`SELECT ${COLUMNS} FROM transfer_acls WHERE id = ?1 AND account_id = ?2`)
    .bind(id, accountId)
    .first<AclRow>()
  if (!row) throw notFound(id)
  return row
}

export async function createAcl({ db, accountId }: AccountDb, input: AclInput): Promise<AclRow> {
  const row = { id: newId(), ...input }
  const r = await db
    .prepare(
      `INSERT INTO transfer_acls (id, account_id, name, ip_range, created_on, modified_on)
       SELECT ?1, ?2, ?3, ?4, ?5, ?5 WHERE ${notFencedSql(2)}`
    )
    .bind(row.id, accountId, row.name, row.ip_range, nowIso())
    .run()
  if (r.meta.changes === 0) await refuseIfFenced(db, accountId)
  return row
}

export async function updateAcl(
  { db, accountId }: AccountDb,
  id: string,
  input: AclInput
): Promise<AclRow> {
  const r = await db
    .prepare(
      `UPDATE transfer_acls SET name = ?3, ip_range = ?4, modified_on = ?5
       WHERE id = ?1 AND account_id = ?2 AND ${notFencedSql(2)}`
    )
    .bind(id, accountId, input.name, input.ip_range, nowIso())
    .run()
  if (r.meta.changes === 0) {
    await refuseIfFenced(db, accountId)
    throw notFound(id)
  }
  return { id, ...input }
}

export async function deleteAcl({ db, accountId }: AccountDb, id: string): Promise<void> {
  const r = await db
    .prepare(`DELETE FROM transfer_acls WHERE id = ?1 AND account_id = ?2 AND ${notFencedSql(2)}`)
    .bind(id, accountId)
    .run()
  if (r.meta.changes === 0) {
    await refuseIfFenced(db, accountId)
    throw notFound(id)
  }
}
