/**
 * @module The token operations, served alike under an account (`/accounts/{account_id}/tokens`)
 * and for the user (`/user/tokens`).
 */
import { TOKEN_MAX_AGE_MS } from '../auth/verified-tokens.ts'
import { createSchema as tokenCreate } from '../routes/tokens.ts'
import { page } from './query-params.ts'
import * as r from './responses.ts'
import type { Operation } from './operation.ts'

/** The token operations under `base`, tagged `tag`. */
export const tokenOps = (base: string, tag: string): Operation[] => [
  {
    method: 'get',
    path: `${base}/verify`,
    tag,
    summary: 'Verify the calling token',
    result: r.verifyResponse,
  },
  {
    method: 'get',
    path: `${base}/permission_groups`,
    tag,
    summary: 'Permission groups a policy may use',
    result: r.permissionGroup,
    list: true,
  },
  {
    method: 'post',
    path: base,
    tag,
    summary: 'Create a token (the secret is returned once)',
    description: MINTING_BOUND,
    body: tokenCreate,
    result: r.tokenResponse,
  },
  {
    method: 'get',
    path: base,
    tag,
    summary: 'List tokens',
    description: 'Oldest first, paged: `per_page` 20 by default, at most 50.',
    query: page,
    result: r.tokenResponse,
    list: true,
  },
  {
    method: 'get',
    path: `${base}/{token_id}`,
    tag,
    summary: 'Get a token',
    result: r.tokenResponse,
  },
  {
    method: 'delete',
    path: `${base}/{token_id}`,
    tag,
    summary: 'Delete a token',
    description: [
      'A token may delete only tokens within what it holds itself: it must hold every permission of',
      "the token's policies on their resources (each zone under the account that holds it); expiry does not bound a deletion.",
      'Anything beyond answers 403 (code 10000); administrator tokens are not bound.',
      'Recorded in the account audit log (`token_delete`).',
      `The token is refused at once by the API isolate that deleted it, and within ${TOKEN_MAX_AGE_MS / 1000} s by every other (each keeps the tokens it verified for up to that long).`,
    ].join(' '),
    result: r.deletedResponse,
  },
]

const MINTING_BOUND = [
  'A token may grant only what it holds itself: every permission of every new policy must be held',
  "by the calling token on each of the policy's resources (a grant on an account covers its zones),",
  'and the new token may not outlive the caller: when the caller expires, `expires_on` is required',
  'and no later than its own. Anything beyond answers 403 (code 10000) naming what was refused.',
  'Administrator tokens (the bootstrap token, the local dev token) are not bound.',
  'A `condition` (request IP filter) is not supported and is refused (400, code 1004) rather than',
  'ignored, as is a resource keyed `__proto__`.',
  'A token holds at most 50 policies, 20 permission groups and 500 resources a policy, and 64 KiB of',
  'policies as stored; more is refused (400) naming the bound. A permission group applies only to',
  'resources of its scopes (API Tokens Write to accounts), `expires_on` must be later than now and',
  'than `not_before`, and policy ids may not repeat.',
  'Recorded in the account audit log (`token_create`), never with the secret.',
].join(' ')
