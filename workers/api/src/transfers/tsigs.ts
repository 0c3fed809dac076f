/**
 * @module An account's TSIG keys (`/accounts/{id}/secondary_dns/tsigs`): validation, the
 * Cloudflare shape `{ id, name, algo, secret }`, and the rows on the account's shard. Key names are
 * unique per account; a key a peer uses cannot be deleted.
 */
import { z } from 'zod'
import { ApiError, Codes } from '../http/api-error.ts'
import { newId, nowIso } from '../http/ids.ts'
import { notFencedSql, refuseIfFenced, type AccountDb } from './account-db.ts'
import { domainNameSchema } from './fields.ts'

/** The algorithms transfers are signed with, as Cloudflare spells them (with the final dot). */
export const TSIG_ALGORITHMS = ['hmac-sha256.', 'hmac-sha512.'] as const
/** Fewest bytes a secret may decode to (an HMAC key shorter than this is guessable). */
const MIN_SECRET_BYTES = 16

const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/

const algoSchema = z.string().transform((value, ctx) => {
  const algo = value.trim().toLowerCase().replace(/\.?$/, '.')
  const known = TSIG_ALGORITHMS.find((a) => a === algo)
  if (known) return known
  ctx.addIssue({
    code: 'custom',
    message: `${JSON.stringify(value)} is not a supported TSIG algorithm; use one of ${TSIG_ALGORITHMS.join(', ')}`,
  })
  return z.NEVER
})

/** Longest secret accepted, in base64 characters (far above any HMAC key in use). */
const MAX_SECRET_CHARS = 1024

const secretSchema = z.string().superRefine((value, ctx) => {
  if (value.length > MAX_SECRET_CHARS) {
    ctx.addIssue({ code: 'custom', message: `must be at most ${MAX_SECRET_CHARS} characters` })
  } else if (!BASE64.test(value)) {
    ctx.addIssue({ code: 'custom', message: 'must be base64 (A–Z, a–z, 0–9, +, /, = padding)' })
  } else if ((value.length / 4) * 3 - (value.match(/=/g)?.length ?? 0) < MIN_SECRET_BYTES) {
    ctx.addIssue({ code: 'custom', message: `must decode to at least ${MIN_SECRET_BYTES} bytes` })
  }
})

/** The body of POST and PUT (PUT replaces every field). */
export const tsigSchema = z.object({
  name: domainNameSchema,
  algo: algoSchema,
  secret: secretSchema,
})
type TsigInput = z.output<typeof tsigSchema>

interface TsigRow {
  id: string
  name: string
  algo: string
  secret: string
}

const COLUMNS = 'id, name, algo, secret'

export function tsigToApi(row: TsigRow): Record<string, unknown> {
  return { id: row.id, name: row.name, algo: row.algo, secret: row.secret }
}

function notFound(id: string): ApiError {
  return new ApiError(404, Codes.tsigNotFound, `TSIG key ${id} not found in this account`)
}

function nameTaken(name: string): ApiError {
  return ApiError.badRequest(
    Codes.tsigNameTaken,
    `The account already has a TSIG key named ${name}; key names are unique per account`
  )
}

const isUniqueViolation = (e: unknown): boolean => /UNIQUE constraint failed/i.test(String(e))

export async function listTsigs({ db, accountId }: AccountDb): Promise<TsigRow[]> {
  const { results } = await db
    .prepare(`SELECT ${COLUMNS} FROM transfer_tsigs WHERE account_id = ?1 ORDER BY name, id`)
    .bind(accountId)
    .all<TsigRow>()
  return results
}

export async function getTsig({ db, accountId }: AccountDb, id: string): Promise<TsigRow> {
  const row = await db
    .prepare(`SELECT ${COLUMNS} FROM transfer_tsigs WHERE id = ?1 AND account_id = ?2`)
    .bind(id, accountId)
    .first<TsigRow>()
  if (!row) throw notFound(id)
  return row
}

export async function createTsig({ db, accountId }: AccountDb, input: TsigInput): Promise<TsigRow> {
  const row = { id: newId(), ...input }
  const now = nowIso()
  let changes: number
  try {
    const r = await db
      .prepare(
        `INSERT INTO transfer_tsigs (id, account_id, name, algo, secret, created_on, modified_on)
         SELECT ?1, ?2, ?3, ?4, ?5, ?6, ?6 WHERE ${notFencedSql(2)}`
      )
      .bind(row.id, accountId, row.name, row.algo, row.secret, now)
      .run()
    changes = r.meta.changes
  } catch (e) {
    if (isUniqueViolation(e)) throw nameTaken(row.name)
    throw e
  }
  if (changes === 0) await refuseIfFenced(db, accountId)
  return row
}

export async function updateTsig(
  account: AccountDb,
  id: string,
  input: TsigInput
): Promise<TsigRow> {
  let changes: number
  try {
    const r = await account.db
      .prepare(
        `UPDATE transfer_tsigs SET name = ?3, algo = ?4, secret = ?5, modified_on = ?6
         WHERE id = ?1 AND account_id = ?2 AND ${notFencedSql(2)}`
      )
      .bind(id, account.accountId, input.name, input.algo, input.secret, nowIso())
      .run()
    changes = r.meta.changes
  } catch (e) {
    if (isUniqueViolation(e)) throw nameTaken(input.name)
    throw e
  }
  if (changes === 0) {
    await refuseIfFenced(account.db, account.accountId)
    throw notFound(id)
  }
  return { id, ...input }
}

/** Deletes the key unless a peer uses it (then 409 naming the peers); 404 when there is none. */
export async function deleteTsig({ db, accountId }: AccountDb, id: string): Promise<void> {
  const r = await db
    .prepare(
      `DELETE FROM transfer_tsigs WHERE id = ?1 AND account_id = ?2 AND ${notFencedSql(2)}
       AND NOT EXISTS (SELECT 1 FROM transfer_peers WHERE account_id = ?2 AND tsig_id = ?1)`
    )
    .bind(id, accountId)
    .run()
  if (r.meta.changes > 0) return
  await refuseIfFenced(db, accountId)
  await getTsig({ db, accountId }, id)
  const { results } = await db
    .prepare(
      'SELECT id, name FROM transfer_peers WHERE account_id = ?1 AND tsig_id = ?2 ORDER BY name LIMIT 10'
    )
    .bind(accountId, id)
    .all<{ id: string; name: string }>()
  throw new ApiError(
    409,
    Codes.transferInUse,
    `TSIG key ${id} is used by peer ${results.map((p) => `${p.name} (${p.id})`).join(', ')}: remove it from those peers (tsig_id) before deleting the key`
  )
}
