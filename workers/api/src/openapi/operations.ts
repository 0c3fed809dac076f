/**
 * @module Every operation the API serves, with the zod schemas its route validates the body with
 * (imported from the routes themselves) and the shape it answers with.
 */
import type { z } from 'zod'
import { policySchema } from '../auth/policies.ts'
import { batchRequestSchema } from '../batch/request.ts'
import { recordFieldsSchema, recordWithIdSchema } from '../records/input.ts'
import { createSchema as accountCreate, editSchema as accountEdit } from '../routes/accounts.ts'
import {
  createSchema as zoneCreate,
  dnsSettingsSchema,
  editSchema as zoneEdit,
} from '../routes/zones.ts'
import { dnssecEditSchema } from '../routes/dnssec.ts'
import { moveSchema } from '../routes/shards.ts'
import * as r from './responses.ts'
import type { Operation } from './operation.ts'
import { auditLogQuery, page, zoneListQuery } from './query-params.ts'
import { recordOps } from './record-operations.ts'
import { secondaryDnsOps, TRANSFER_SCHEMAS } from './secondary-dns-operations.ts'
import { transferOps } from './transfer-operations.ts'
import { tokenOps } from './token-operations.ts'

const propagation = '/zones/{zone_id}/propagation'

export const OPERATIONS: Operation[] = [
  {
    method: 'get',
    path: '/openapi.json',
    tag: 'Meta',
    summary: 'This OpenAPI 3.1 document',
    result: 'json',
    public: true,
  },
  {
    method: 'get',
    path: '/docs',
    tag: 'Meta',
    summary: 'Browsable API reference (HTML)',
    result: 'html',
    public: true,
  },
  {
    method: 'get',
    path: '/local_dev',
    tag: 'Meta',
    summary: 'Local development only (DEV_API_TOKEN set): the dev token, for the dashboard login',
    result: 'json',
    public: true,
  },

  {
    method: 'get',
    path: '/accounts',
    tag: 'Accounts',
    summary: 'List accounts',
    query: page,
    result: r.accountResponse,
    list: true,
  },
  {
    method: 'post',
    path: '/accounts',
    tag: 'Accounts',
    summary: 'Create an account (admin)',
    body: accountCreate,
    result: r.accountResponse,
  },
  {
    method: 'get',
    path: '/accounts/{account_id}',
    tag: 'Accounts',
    summary: 'Get an account',
    result: r.accountResponse,
  },
  {
    method: 'put',
    path: '/accounts/{account_id}',
    tag: 'Accounts',
    summary: 'Rename an account or set max_dns_batch_changes and api_rate_limit (admin)',
    body: accountEdit,
    result: r.accountResponse,
  },

  ...tokenOps('/accounts/{account_id}/tokens', 'Account tokens'),
  {
    method: 'get',
    path: '/accounts/{account_id}/audit_logs',
    tag: 'Accounts',
    summary: "The account's audit log: API tokens made and deleted, newest first",
    description:
      'Readable by an administrator or a token with API Tokens Write on the account. Entries name the calling token, the token changed (id and name) and its policies; never a secret. Record changes are audited per zone: `GET /zones/{zone_id}/dns_records/audit`.',
    query: auditLogQuery,
    result: r.auditLogResponse,
    list: true,
  },
  {
    method: 'get',
    path: '/accounts/{account_id}/shard',
    tag: 'Accounts',
    summary: "The D1 shard holding the account's zones, and its last move (admin)",
    result: r.shardPlacementResponse,
  },
  {
    method: 'put',
    path: '/accounts/{account_id}/shard',
    tag: 'Accounts',
    summary: "Start moving the account's zones to another D1 shard in the background (admin)",
    description:
      'Answers 202 with the move it started. The move copies while the account keeps accepting writes, then refuses writes (503, code 10004, retry) for a short final pass and the switch; `GET` on the same path reports its progress. One move of an account at a time (400, code 9000).',
    body: moveSchema,
    status: 202,
    result: r.shardMoveResponse,
  },
  ...tokenOps('/user/tokens', 'User tokens'),
  {
    method: 'get',
    path: '/user/audit_logs',
    tag: 'User tokens',
    summary: 'Every audit log entry, of every account and of tokens made here (admin)',
    query: auditLogQuery,
    result: r.auditLogResponse,
    list: true,
  },

  {
    method: 'get',
    path: '/zones',
    tag: 'Zones',
    summary: 'List zones',
    query: zoneListQuery,
    result: r.zoneResponse,
    list: true,
  },
  {
    method: 'post',
    path: '/zones',
    tag: 'Zones',
    summary: 'Create a zone',
    body: zoneCreate,
    result: r.zoneResponse,
  },
  {
    method: 'get',
    path: '/zones/{zone_id}',
    tag: 'Zones',
    summary: 'Get a zone',
    result: r.zoneResponse,
  },
  {
    method: 'patch',
    path: '/zones/{zone_id}',
    tag: 'Zones',
    summary: 'Edit a zone',
    body: zoneEdit,
    result: r.zoneResponse,
  },
  {
    method: 'delete',
    path: '/zones/{zone_id}',
    tag: 'Zones',
    summary: 'Delete a zone and its records',
    result: r.deletedResponse,
  },
  {
    method: 'put',
    path: '/zones/{zone_id}/activation_check',
    tag: 'Zones',
    summary:
      'Check ownership of a pending zone (TXT _edgedns-verify.<zone> = verification_key, or delegation to its name_servers, never vanity_name_servers) and activate it; `messages` say what is missing. One check that looks the name up per zone a minute: past it, 429 (code 971) with retry-after',
    result: r.deletedResponse,
  },
  {
    method: 'get',
    path: '/zones/{zone_id}/dns_settings',
    tag: 'Zones',
    summary: 'DNS settings (SOA, NS TTL, proxy addresses)',
    result: r.dnsSettingsResponse,
  },
  {
    method: 'patch',
    path: '/zones/{zone_id}/dns_settings',
    tag: 'Zones',
    summary:
      "Edit DNS settings. A secondary zone's SOA is its primary's: SOA values other than its own are refused (400, code 10209)",
    body: dnsSettingsSchema,
    result: r.dnsSettingsResponse,
  },
  {
    method: 'get',
    path: '/zones/{zone_id}/dnssec',
    tag: 'DNSSEC',
    summary: 'DNSSEC status, key and DS record',
    result: r.dnssecResponse,
  },
  {
    method: 'patch',
    path: '/zones/{zone_id}/dnssec',
    tag: 'DNSSEC',
    summary: 'Enable (status active) or disable (signing continues for the grace period)',
    body: dnssecEditSchema,
    result: r.dnssecResponse,
  },
  {
    method: 'delete',
    path: '/zones/{zone_id}/dnssec',
    tag: 'DNSSEC',
    summary: 'Remove the keys at once: answers are unsigned from the next build',
    result: r.dnssecDeleteResponse,
  },
  {
    method: 'post',
    path: '/zones/{zone_id}/dnssec/keys',
    tag: 'DNSSEC',
    summary:
      'Key rollover, step 1: add a second key; both are published and sign (no body, or an empty object)',
    result: r.dnssecResponse,
  },
  {
    method: 'delete',
    path: '/zones/{zone_id}/dnssec/keys/{tag}',
    tag: 'DNSSEC',
    summary:
      'Key rollover, step 3: remove the old key (by key tag, 0–65535) once the DS of the new one is at the parent',
    result: r.dnssecResponse,
  },
  {
    method: 'get',
    path: '/zones/{zone_id}/pagerules',
    tag: 'Zones',
    summary: 'Page rules: always an empty list (no proxy features here; read-only)',
    query: [{ name: 'status', description: 'Ignored' }],
    result: r.pageRuleList,
    list: true,
  },

  ...recordOps,

  {
    method: 'get',
    path: propagation,
    tag: 'Propagation',
    summary: 'Build progress: committed_seq vs built_seq',
    result: r.propagationResponse,
  },
  {
    method: 'post',
    path: `${propagation}/rebuild`,
    tag: 'Propagation',
    summary: 'Request a full rebuild of the zone',
    result: r.rebuildResponse,
  },
  {
    method: 'get',
    path: `${propagation}/check`,
    tag: 'Propagation',
    summary: 'Compare D1 with KV',
    result: r.convergenceResponse,
  },
  {
    method: 'post',
    path: '/propagation/sweep',
    tag: 'Propagation',
    summary: 'Run the propagation sweep now, as the cron trigger does (admin)',
    result: r.sweepResponse,
  },
  ...secondaryDnsOps,
  ...transferOps,
]

/** Schemas published under components.schemas by name. */
export const NAMED_SCHEMAS: [string, z.ZodType][] = [
  ['Record', r.recordResponse],
  ['RecordInput', recordFieldsSchema],
  ['RecordInputWithId', recordWithIdSchema],
  ['BatchRequest', batchRequestSchema],
  ['Zone', r.zoneResponse],
  ['TokenPolicy', policySchema],
  ['Error', r.errorItem],
  ['ResultInfo', r.resultInfo],
  ['BatchResult', r.batchResponse],
  ['DnsSettings', r.dnsSettingsResponse],
  ['ImportResult', r.importResponse],
  ['Token', r.tokenResponse],
  ['Account', r.accountResponse],
  ['Propagation', r.propagationResponse],
  ...TRANSFER_SCHEMAS.map(({ name, schema }): [string, z.ZodType] => [name, schema]),
]

/** Named schemas that describe answers (the rest describe request bodies). */
export const RESPONSE_SCHEMAS: ReadonlySet<string> = new Set([
  'Record',
  'Zone',
  'Error',
  'ResultInfo',
  'BatchResult',
  'DnsSettings',
  'ImportResult',
  'Token',
  'Account',
  'Propagation',
  ...TRANSFER_SCHEMAS.filter((s) => s.response).map((s) => s.name),
])
