/**
 * @module zod shapes of the API's responses, for the OpenAPI document only (requests are described
 * by the very schemas the routes validate with; see operations.ts).
 */
import { RECORD_TYPES } from '@edgedns/records'
import { z } from 'zod'
import { policySchema } from '../auth/policies.ts'

const id = z
  .string()
  .regex(/^[0-9a-f]{32}$/)
  .meta({ description: '32 lowercase hex characters', example: '023e105f4ecef8ad9ca31a8372d0c353' })
const time = z.string().meta({ description: 'RFC 3339 timestamp' })

export const errorItem = z.object({
  code: z.number().int(),
  message: z.string(),
  source: z
    .object({ pointer: z.string() })
    .optional()
    .meta({ description: 'JSON pointer of the offending batch item' }),
  error_chain: z.array(z.object({ code: z.number().int(), message: z.string() })).optional(),
})

export const resultInfo = z.object({
  page: z.number().int().optional().meta({ description: 'Absent on a page reached by cursor' }),
  per_page: z.number().int(),
  count: z.number().int(),
  total_count: z
    .number()
    .int()
    .optional()
    .meta({ description: 'Absent on a page reached by cursor' }),
  total_pages: z
    .number()
    .int()
    .optional()
    .meta({ description: 'Absent on a page reached by cursor' }),
  cursors: z
    .object({ after: z.string().optional() })
    .optional()
    .meta({ description: 'GET /zones: pass `after` as `cursor` for the next page' }),
})

export const recordResponse = z.object({
  id,
  name: z.string().meta({ description: 'Lowercase FQDN (Punycode) without trailing dot' }),
  type: z.enum(RECORD_TYPES),
  content: z.string(),
  proxiable: z.boolean(),
  proxied: z.boolean(),
  ttl: z.number().int().meta({ description: '1 = automatic (300 s), else 60..86400' }),
  settings: z
    .object({ ipv4_only: z.boolean(), ipv6_only: z.boolean(), flatten_cname: z.boolean() })
    .partial(),
  meta: z
    .object({
      shadowed_by: z.array(id).optional(),
      is_glue: z.literal(true).optional(),
      dead_glue: z.literal(true).optional(),
      shadowed_records_count: z.number().int().optional(),
    })
    .loose()
    .meta({
      description:
        'Shadow keys only with include_shadow_metadata=true, each omitted when empty or false: shadowed_by (ids of the NS records delegating the name or a parent), is_glue, dead_glue (glue a shallower delegation keeps from being served), shadowed_records_count (NS below the apex: records at or below its name, at most 10,000)',
    }),
  comment: z.string().nullable(),
  tags: z.array(z.string()),
  created_on: time,
  modified_on: time,
  comment_modified_on: time.optional(),
  tags_modified_on: time.optional(),
  priority: z.number().int().optional(),
  data: z
    .record(z.string(), z.unknown())
    .optional()
    .meta({ description: 'Structured fields of data-based types (see RecordData.* schemas)' }),
})

export const zoneResponse = z.object({
  id,
  name: z.string(),
  status: z
    .enum(['pending', 'active'])
    .meta({ description: 'pending until ownership is proven (docs/zone-ownership.md)' }),
  paused: z.boolean(),
  type: z.enum(['full', 'partial', 'secondary', 'internal']),
  development_mode: z.number(),
  name_servers: z.array(z.string()),
  vanity_name_servers: z.array(z.string()),
  original_name_servers: z.null(),
  original_registrar: z.null(),
  original_dnshost: z.null(),
  created_on: time,
  modified_on: time,
  activated_on: time.nullable(),
  verification_key: z.string().nullable().meta({
    description: 'Publish it as TXT at _edgedns-verify.<name> to prove ownership of a pending zone',
  }),
  meta: z.object({}).loose(),
  owner: z.object({ id: z.string().nullable(), type: z.string(), name: z.string() }),
  account: z.object({ id, name: z.string() }),
  permissions: z.array(z.string()),
  plan: z.object({ id: z.string(), name: z.string() }).loose(),
})

export const dnsSettingsResponse = z.object({
  flatten_all_cnames: z
    .boolean()
    .meta({ description: 'Always false: flatten per record with settings.flatten_cname' }),
  foundation_dns: z.boolean().meta({ description: 'Always false' }),
  internal_dns: z
    .object({ reference_zone_id: z.string().optional() })
    .meta({ description: 'Always {}: zones here are not internal zones' }),
  multi_provider: z.boolean().meta({ description: 'Always false' }),
  secondary_overrides: z.boolean().meta({ description: 'Always false' }),
  ns_ttl: z.number().int(),
  soa: z.object({
    mname: z.string(),
    rname: z.string(),
    refresh: z.number(),
    retry: z.number(),
    expire: z.number(),
    min_ttl: z.number(),
    ttl: z.number(),
  }),
  zone_mode: z.string(),
  nameservers: z.object({ type: z.string() }),
  proxy_addresses: z.object({ ipv4: z.array(z.string()), ipv6: z.array(z.string()) }),
})

export const batchResponse = z.object({
  deletes: z.array(recordResponse).optional(),
  patches: z.array(recordResponse).optional(),
  puts: z.array(recordResponse).optional(),
  posts: z.array(recordResponse).optional(),
})

export const importResponse = z.object({
  recs_added: z
    .number()
    .int()
    .meta({ description: 'Records created (identical existing records are skipped)' }),
  recs_added_by_type: z.record(z.string(), z.number().int()),
  total_records_parsed: z.number().int().meta({
    description: 'Resource records in the file, after $GENERATE, including skipped SOA/NS',
  }),
})

export const importForm = z.object({
  file: z.string().meta({
    description: 'BIND zone file, as a file part or a plain text field',
    contentMediaType: 'text/plain',
  }),
  proxied: z
    .enum(['true', 'false'])
    .optional()
    .meta({ description: 'Proxy A/AAAA/CNAME records without a cf-proxied tag (default false)' }),
})

export const deletedResponse = z.object({ id })

const dnssecKey = z.object({
  key_tag: z.number().int(),
  public_key: z.string(),
  digest: z.string(),
  ds: z.string(),
  created_on: z.string(),
})
export const dnssecResponse = z.object({
  status: z.enum(['active', 'pending', 'disabled', 'pending-disabled']),
  algorithm: z.string().nullable(),
  key_type: z.string().nullable(),
  flags: z.number().int().nullable(),
  key_tag: z.number().int().nullable(),
  public_key: z.string().nullable(),
  digest_algorithm: z.string().nullable(),
  digest_type: z.string().nullable(),
  digest: z.string().nullable(),
  ds: z.string().nullable().meta({
    description: 'The DS record to give the registrar (the newest key during a rollover)',
  }),
  modified_on: z.string().nullable(),
  dnssec_multi_signer: z.boolean(),
  dnssec_presigned: z.boolean(),
  dnssec_use_nsec3: z.boolean(),
  keys: z
    .array(dnssecKey)
    .meta({ description: 'Every published key, oldest first (two during a rollover)' }),
})
export const dnssecDeleteResponse = z.string().meta({ description: 'The zone id' })

export const auditEntry = z.object({
  seq: z.number().int(),
  action: z.enum(['create', 'update', 'delete']),
  record_id: z.string().nullable(),
  token_id: z.string().nullable(),
  when: time,
  before: recordResponse.nullable(),
  after: recordResponse.nullable(),
})

const zoneServedStatus = z.enum(['pending', 'active']).meta({
  description:
    "The zone's status: a pending zone is not served, so nothing of it is built into KV (built_seq 0, lag_ms 0, nothing expected)",
})
const pendingMessage = z
  .string()
  .optional()
  .meta({ description: 'For a pending zone: why nothing is built' })

export const propagationResponse = z.object({
  status: zoneServedStatus,
  message: pendingMessage,
  committed_seq: z.number().int(),
  built_seq: z.number().int(),
  lag_ms: z.number(),
  last_full_build: time.nullable(),
  built_at: time.nullable(),
  last_error: z.object({ at: time.nullable(), message: z.string() }).nullable(),
})

export const rebuildResponse = z.object({ seq: z.number().int() })

export const sweepResponse = z.object({
  lagging: z.number().int(),
  notified: z.number().int(),
  failed: z.number().int(),
  cleared: z.number().int(),
})

/** A background account move (shards/move.ts), as PUT starts it and GET reports it. */
export const shardMoveResponse = z.object({
  account_id: z.string(),
  from: z.number().int(),
  /** The destination shard. */
  shard: z.number().int(),
  status: z.enum(['running', 'done']),
  phase: z.enum(['copy', 'catchup', 'final', 'retire', 'done']),
  /** Steps (alarm invocations) run so far. */
  steps: z.number().int(),
  zones: z.number().int(),
  records: z.number().int(),
  changes: z.number().int(),
  /** Change-log entries written during the move and applied to the destination. */
  caught_up: z.number().int(),
  started_on: z.string(),
  fenced_on: z.string().nullable(),
  finished_on: z.string().nullable(),
  epoch: z.number().int().nullable(),
  last_error: z.string().nullable(),
})

export const shardPlacementResponse = z.object({
  account_id: z.string(),
  shard: z.number().int().nullable(),
  state: z.enum(['active', 'moving', 'unplaced']),
  epoch: z.number().int(),
  shards: z.number().int(),
  /** The account's last move (running or done), or null when it was never moved. */
  move: shardMoveResponse.nullable(),
})

export const convergenceResponse = z.object({
  zone_id: z.string(),
  zone: z.string(),
  status: zoneServedStatus,
  message: pendingMessage,
  converged: z.boolean(),
  expected_keys: z.number().int(),
  actual_keys: z.number().int(),
  difference_count: z.number().int(),
  differences: z.array(z.unknown()).meta({
    description:
      'Up to 100 differing KV keys, each { key, kind, expected?, actual? }; values holding zone metadata show every DNSSEC private key (sealed) as "[redacted]"',
  }),
})

export const tokenResponse = z.object({
  id,
  name: z.string(),
  status: z.enum(['active', 'expired']).meta({
    description: '`expired` once `expires_on` has passed',
  }),
  issued_on: time,
  modified_on: time,
  not_before: time.optional(),
  expires_on: time.optional(),
  last_used_on: time.optional().meta({
    description:
      'When the token last authenticated, to within an hour (each API isolate records a use at most once an hour per token)',
  }),
  policies: z.array(policySchema),
  value: z.string().optional().meta({ description: 'The secret; returned once, on create' }),
})

export const auditLogResponse = z.object({
  id,
  action: z.object({
    type: z.enum(['token_create', 'token_delete']),
    result: z.boolean(),
  }),
  actor: z.object({
    id: z.string().meta({ description: "The calling token's id ('dev' for the local dev token)" }),
    type: z.literal('token'),
    ip: z.string().optional(),
  }),
  owner: z.object({ id: z.string().nullable() }),
  resource: z.object({ id, type: z.literal('api_token'), name: z.string().nullable() }),
  interface: z.string(),
  when: time,
  oldValueJson: z
    .unknown()
    .meta({ description: 'The token before the change (no secret); null for a create' }),
  newValueJson: z
    .unknown()
    .meta({ description: 'The token after the change (no secret); null for a delete' }),
})

export const verifyResponse = z.object({ id: z.string(), status: z.string() })
export const permissionGroup = z.object({
  id: z.string(),
  name: z.string(),
  scopes: z.array(z.string()),
})

export const accountResponse = z.object({
  id,
  name: z.string(),
  type: z.string(),
  created_on: time,
  settings: z.object({
    enforce_twofactor: z.boolean(),
    max_dns_batch_changes: z.number().int().nullable(),
    api_rate_limit: z.number().int().meta({
      description: "Requests each of the account's API tokens may make per 5 minutes",
    }),
  }),
})

export const pageRuleList = z
  .object({})
  .meta({ description: 'Page rules are not served here: the list is always empty' })
