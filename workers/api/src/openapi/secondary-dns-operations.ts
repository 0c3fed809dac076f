/**
 * @module The secondary-DNS (zone transfer) configuration operations: an account's TSIG keys, peers
 * and ACLs, and a zone's incoming and outgoing configuration, with their response shapes.
 */
import { z } from 'zod'
import { aclSchema } from '../transfers/acls.ts'
import { incomingSchema } from '../transfers/incoming-settings.ts'
import { outgoingSchema } from '../transfers/outgoing-settings.ts'
import { peerSchema } from '../transfers/peers.ts'
import { TSIG_ALGORITHMS, tsigSchema } from '../transfers/tsigs.ts'
import type { Operation } from './operation.ts'
import { deletedResponse } from './responses.ts'
import { catalogResponse } from './transfer-operations.ts'
import { catalogSchema } from '../transfers/catalog-settings.ts'

const id = z.string().regex(/^[0-9a-f]{32}$/)
const time = z.string().meta({ description: 'RFC 3339 timestamp; absent until it happened' })

const tsigResponse = z.object({
  id,
  name: z.string().meta({ description: 'Key name: lower case, no final dot' }),
  algo: z.enum(TSIG_ALGORITHMS),
  secret: z.string().meta({ description: 'Base64' }),
})
const peerResponse = z.object({
  id,
  name: z.string(),
  ip: z.string().optional().meta({ description: 'Absent until set' }),
  port: z
    .number()
    .int()
    .optional()
    .meta({ description: 'Absent until an ip is set (then 53 unless given)' }),
  ixfr_enable: z.boolean(),
  tsig_id: id.optional(),
})
const aclResponse = z.object({
  id,
  name: z.string(),
  ip_range: z.string().meta({ description: 'Canonical CIDR: network address / prefix length' }),
})
const settings = {
  id: id.meta({ description: 'The zone id' }),
  name: z.string(),
  peers: z.array(id),
  created_time: time,
  modified_time: time,
  checked_time: time.optional(),
}
const incomingResponse = z.object({
  ...settings,
  auto_refresh_seconds: z.number().int(),
  soa_serial: z
    .number()
    .int()
    .optional()
    .meta({ description: 'Serial of the copy the zone holds: its last transfer committed' }),
  skipped_records: z
    .array(z.object({ type: z.string(), count: z.number().int(), reason: z.string() }))
    .optional()
    .meta({
      description:
        "Records of the primary's zone the copy held lacks, by type (types the records API does not hold, records it refuses), with the first reason; absent until a transfer reports",
    }),
  serving: z.boolean().meta({
    description:
      "False while the zone answers no query: it holds no copy yet, or its copy is past its SOA's expire with no primary confirming it",
  }),
  failed_checks: z.number().int().optional().meta({
    description: 'Checks of the primaries failed since the last good one (GET only)',
  }),
  last_error: z.string().optional().meta({
    description: "The last check's error; absent after a good check (GET only)",
  }),
  next_check_time: time.optional().meta({
    description:
      "When the zone's primaries are next checked without a NOTIFY; absent while a check runs (GET only)",
  }),
  expires_time: time.optional().meta({
    description:
      "When the copy stops being answered unless a primary confirms it first (the last good check plus the SOA's expire; past once expired); absent before a good check (GET only)",
  }),
})
const outgoingResponse = z.object({
  ...settings,
  soa_serial: z.number().int().meta({ description: "The zone's current SOA serial" }),
  last_transferred_time: time.optional(),
})
const enabled = (value: 'Enabled' | 'Disabled' | 'either') =>
  value === 'either' ? z.enum(['Enabled', 'Disabled']) : z.literal(value)

const ACCOUNT_TAG = 'Secondary DNS (account)'
const ZONE_TAG = 'Secondary DNS (zone)'

/** GET list, POST, and GET / PUT / DELETE by id of one account collection. */
function collection(
  path: string,
  param: string,
  what: string,
  body: z.ZodType,
  result: z.ZodType,
  description?: string
): Operation[] {
  const base = `/accounts/{account_id}/secondary_dns/${path}`
  const item = `${base}/{${param}}`
  const about = description ? { description } : {}
  return [
    { method: 'get', path: base, tag: ACCOUNT_TAG, summary: `List ${what}s`, result, list: true },
    {
      method: 'post',
      path: base,
      tag: ACCOUNT_TAG,
      summary: `Create a ${what}`,
      body,
      result,
      ...about,
    },
    { method: 'get', path: item, tag: ACCOUNT_TAG, summary: `Get a ${what}`, result },
    {
      method: 'put',
      path: item,
      tag: ACCOUNT_TAG,
      summary: `Replace a ${what}`,
      body,
      result,
      ...about,
    },
    {
      method: 'delete',
      path: item,
      tag: ACCOUNT_TAG,
      summary: `Delete a ${what}`,
      result: deletedResponse,
    },
  ]
}

const incoming = '/zones/{zone_id}/secondary_dns/incoming'
const outgoing = '/zones/{zone_id}/secondary_dns/outgoing'

export const secondaryDnsOps: Operation[] = [
  ...collection(
    'tsigs',
    'tsig_id',
    'TSIG key',
    tsigSchema,
    tsigResponse,
    'algo: hmac-sha256 or hmac-sha512 (final dot optional); secret: base64 of at least 16 bytes; names unique in the account. A key a peer uses cannot be deleted (409).'
  ),
  ...collection(
    'peers',
    'peer_id',
    'peer',
    peerSchema,
    peerResponse,
    'PUT replaces the peer: fields left out are cleared. tsig_id must be a TSIG key of the account. A peer a zone configuration names cannot be deleted (409).'
  ),
  ...collection('acls', 'acl_id', 'ACL', aclSchema, aclResponse),
  {
    method: 'get',
    path: incoming,
    tag: ZONE_TAG,
    summary: 'Incoming transfer configuration (secondary zones)',
    result: incomingResponse,
  },
  {
    method: 'post',
    path: incoming,
    tag: ZONE_TAG,
    summary: 'Create the incoming transfer configuration of a secondary zone',
    body: incomingSchema,
    result: incomingResponse,
  },
  {
    method: 'put',
    path: incoming,
    tag: ZONE_TAG,
    summary: 'Replace the incoming transfer configuration',
    body: incomingSchema,
    result: incomingResponse,
  },
  {
    method: 'delete',
    path: incoming,
    tag: ZONE_TAG,
    summary: 'Delete the incoming transfer configuration',
    result: deletedResponse,
  },
  {
    method: 'get',
    path: outgoing,
    tag: ZONE_TAG,
    summary: 'Outgoing transfer configuration (primary zones)',
    result: outgoingResponse,
  },
  {
    method: 'post',
    path: outgoing,
    tag: ZONE_TAG,
    summary: 'Create the outgoing transfer configuration of a primary zone (disabled)',
    body: outgoingSchema,
    result: outgoingResponse,
  },
  {
    method: 'put',
    path: outgoing,
    tag: ZONE_TAG,
    summary: 'Replace the outgoing transfer configuration',
    body: outgoingSchema,
    result: outgoingResponse,
  },
  {
    method: 'delete',
    path: outgoing,
    tag: ZONE_TAG,
    summary: 'Delete the outgoing transfer configuration',
    result: deletedResponse,
  },
  {
    method: 'post',
    path: `${outgoing}/enable`,
    tag: ZONE_TAG,
    summary: 'Enable outgoing transfers',
    result: enabled('Enabled'),
  },
  {
    method: 'post',
    path: `${outgoing}/disable`,
    tag: ZONE_TAG,
    summary: 'Disable outgoing transfers',
    result: enabled('Disabled'),
  },
  {
    method: 'get',
    path: `${outgoing}/status`,
    tag: ZONE_TAG,
    summary: 'Whether outgoing transfers are enabled (Disabled without a configuration)',
    result: enabled('either'),
  },
]

/** The zone-transfer shapes published under components.schemas (answers, and request bodies). */
export const TRANSFER_SCHEMAS: { name: string; schema: z.ZodType; response: boolean }[] = [
  { name: 'TsigKey', schema: tsigResponse, response: true },
  { name: 'TsigKeyInput', schema: tsigSchema, response: false },
  { name: 'Peer', schema: peerResponse, response: true },
  { name: 'PeerInput', schema: peerSchema, response: false },
  { name: 'TransferAcl', schema: aclResponse, response: true },
  { name: 'TransferAclInput', schema: aclSchema, response: false },
  { name: 'IncomingTransfers', schema: incomingResponse, response: true },
  { name: 'IncomingTransfersInput', schema: incomingSchema, response: false },
  { name: 'OutgoingTransfers', schema: outgoingResponse, response: true },
  { name: 'OutgoingTransfersInput', schema: outgoingSchema, response: false },
  { name: 'CatalogZone', schema: catalogResponse, response: true },
  { name: 'CatalogZoneInput', schema: catalogSchema, response: false },
]
