/**
 * @module Cloudflare's account-level zone-transfer configuration:
 *   /accounts/:account_id/secondary_dns/tsigs   TSIG keys
 *   /accounts/:account_id/secondary_dns/peers   name servers transferred to or from
 *   /accounts/:account_id/secondary_dns/acls    address ranges allowed to transfer
 * each with GET (list), POST, and GET / PUT / DELETE by id; and the account's catalog zone
 * (RFC 9432; not a Cloudflare route): GET / PUT / DELETE /accounts/:account_id/secondary_dns/catalog. Reads need DNS Read on the account,
 * writes DNS Write on the account (a grant on single zones does not reach these).
 */
import { Hono, type Context } from 'hono'
import type { z } from 'zod'
import type { Permission } from '../auth/permissions.ts'
import { ApiError, Codes } from '../http/api-error.ts'
import type { AppEnv } from '../http/app-env.ts'
import { readBody } from '../http/body.ts'
import { ok, okList, resultInfo } from '../http/envelope.ts'
import { isId } from '../http/ids.ts'
import { accountDbFor, type AccountDb } from '../transfers/account-db.ts'
import { notifyCatalogLater } from '../transfers/catalog-notify.ts'
import {
  catalogSchema,
  catalogToApi,
  deleteCatalog,
  getCatalog,
  putCatalog,
} from '../transfers/catalog-settings.ts'
import {
  aclSchema,
  aclToApi,
  createAcl,
  deleteAcl,
  getAcl,
  listAcls,
  updateAcl,
} from '../transfers/acls.ts'
import {
  createPeer,
  deletePeer,
  getPeer,
  listPeers,
  peerSchema,
  peerToApi,
  updatePeer,
} from '../transfers/peers.ts'
import {
  createTsig,
  deleteTsig,
  getTsig,
  listTsigs,
  tsigSchema,
  tsigToApi,
  updateTsig,
} from '../transfers/tsigs.ts'

export const secondaryDnsAccountApp = new Hono<AppEnv>()

type Ctx = Context<AppEnv>

/** One collection's operations, all against the account's shard. */
interface Collection<S extends z.ZodType, R> {
  path: string
  /** The path parameter naming one item (`tsig_id`, `peer_id`, `acl_id`). */
  param: string
  what: string
  notFound: number
  schema: S
  toApi: (row: R) => Record<string, unknown>
  list: (a: AccountDb) => Promise<R[]>
  get: (a: AccountDb, id: string) => Promise<R>
  create: (a: AccountDb, input: z.output<S>) => Promise<R>
  update: (a: AccountDb, id: string, input: z.output<S>) => Promise<R>
  remove: (a: AccountDb, id: string) => Promise<void>
}

function itemId(c: Ctx, param: string, what: string, code: number): string {
  const id = c.req.param(param) ?? ''
  if (!isId(id)) throw ApiError.badRequest(code, `Malformed ${what} id ${JSON.stringify(id)}`)
  return id
}

function mount<S extends z.ZodType, R>(col: Collection<S, R>): void {
  const account = (c: Ctx, perm: Permission) => accountDbFor(c, perm)
  secondaryDnsAccountApp.get(col.path, async (c) => {
    const rows = await col.list(await account(c, 'dns:read'))
    return okList(
      c,
      rows.map(col.toApi),
      resultInfo(1, Math.max(1, rows.length), rows.length, rows.length)
    )
  })
  secondaryDnsAccountApp.post(col.path, async (c) => {
    const a = await account(c, 'dns:edit')
    return ok(c, col.toApi(await col.create(a, await readBody(c, col.schema))))
  })
  secondaryDnsAccountApp.get(`${col.path}/:${col.param}`, async (c) => {
    const a = await account(c, 'dns:read')
    return ok(c, col.toApi(await col.get(a, itemId(c, col.param, col.what, col.notFound))))
  })
  secondaryDnsAccountApp.put(`${col.path}/:${col.param}`, async (c) => {
    const a = await account(c, 'dns:edit')
    const id = itemId(c, col.param, col.what, col.notFound)
    return ok(c, col.toApi(await col.update(a, id, await readBody(c, col.schema))))
  })
  secondaryDnsAccountApp.delete(`${col.path}/:${col.param}`, async (c) => {
    const a = await account(c, 'dns:edit')
    const id = itemId(c, col.param, col.what, col.notFound)
    await col.remove(a, id)
    return ok(c, { id })
  })
}

mount({
  path: '/tsigs',
  param: 'tsig_id',
  what: 'TSIG key',
  notFound: Codes.tsigNotFound,
  schema: tsigSchema,
  toApi: tsigToApi,
  list: listTsigs,
  get: getTsig,
  create: createTsig,
  update: updateTsig,
  remove: deleteTsig,
})
mount({
  path: '/peers',
  param: 'peer_id',
  what: 'peer',
  notFound: Codes.peerNotFound,
  schema: peerSchema,
  toApi: peerToApi,
  list: listPeers,
  get: getPeer,
  create: createPeer,
  update: updatePeer,
  remove: deletePeer,
})
mount({
  path: '/acls',
  param: 'acl_id',
  what: 'ACL',
  notFound: Codes.aclNotFound,
  schema: aclSchema,
  toApi: aclToApi,
  list: listAcls,
  get: getAcl,
  create: createAcl,
  update: updateAcl,
  remove: deleteAcl,
})

secondaryDnsAccountApp.get('/catalog', async (c) => {
  return ok(c, catalogToApi(await getCatalog(await accountDbFor(c, 'dns:read'))))
})
secondaryDnsAccountApp.put('/catalog', async (c) => {
  const a = await accountDbFor(c, 'dns:edit')
  const row = await putCatalog(c.env, a, await readBody(c, catalogSchema))
  notifyCatalogLater(c, a.accountId)
  return ok(c, catalogToApi(row))
})
secondaryDnsAccountApp.delete('/catalog', async (c) => {
  const a = await accountDbFor(c, 'dns:edit')
  const { id } = await getCatalog(a)
  await deleteCatalog(a)
  return ok(c, { id })
})
