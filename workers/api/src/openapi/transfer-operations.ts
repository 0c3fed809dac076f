/**
 * @module The zone-transfer actions and relays: a secondary zone's `force_axfr`, a primary zone's
 * `force_notify` (Cloudflare's routes), the account's catalog zone (not Cloudflare's), and the two routes a DNS front calls for secondaries'
 * transfers and primaries' NOTIFY (not Cloudflare's), with their response shapes.
 */
import { z } from 'zod'
import { dnsNotifySchema } from '../routes/dns-notify.ts'
import { catalogSchema } from '../transfers/catalog-settings.ts'
import type { Operation } from './operation.ts'
import { deletedResponse } from './responses.ts'

const ZONE_TAG = 'Secondary DNS (zone)'
const RELAY_TAG = 'Zone transfer relay (DNS front)'
const ACCOUNT_TAG = 'Secondary DNS (account)'
const catalog = '/accounts/{account_id}/secondary_dns/catalog'

export const catalogResponse = z.object({
  id: z.string().regex(/^[0-9a-f]{32}$/),
  name: z.string().meta({ description: "The catalog zone's name: lower case, no final dot" }),
  peers: z
    .array(z.string())
    .meta({ description: 'The secondaries that get NOTIFY and may transfer it' }),
  enabled: z.boolean(),
  soa_serial: z.number().int().meta({
    description: 'Moves with every membership change: max(previous + 1, now in epoch seconds)',
  }),
  created_time: z.string(),
  modified_time: z.string(),
})

export const transferOps: Operation[] = [
  {
    method: 'get',
    path: catalog,
    tag: ACCOUNT_TAG,
    summary: "The account's catalog zone (RFC 9432): its name, peers and serial",
    result: catalogResponse,
  },
  {
    method: 'put',
    path: catalog,
    tag: ACCOUNT_TAG,
    summary: "Make or replace the account's catalog zone",
    description:
      "Lists the account's active primary zones whose outgoing transfers are enabled, one PTR per zone under its zone id. The name may be neither a zone served here nor another account's catalog (400, code 10211); peers must be peers of the account (400, code 10208); enabled defaults to true.",
    body: catalogSchema,
    result: catalogResponse,
  },
  {
    method: 'delete',
    path: catalog,
    tag: ACCOUNT_TAG,
    summary: "Remove the account's catalog zone (its serial is kept for the next one)",
    result: deletedResponse,
  },
  {
    method: 'post',
    path: '/zones/{zone_id}/secondary_dns/force_axfr',
    tag: ZONE_TAG,
    summary:
      'Pull a full AXFR of a secondary zone from its primaries now; "OK" once it is committed',
    result: z.literal('OK'),
  },
  {
    method: 'post',
    path: '/zones/{zone_id}/secondary_dns/outgoing/force_notify',
    tag: ZONE_TAG,
    summary: "Send NOTIFY to the zone's outgoing peers now",
    result: z.literal('OK'),
  },
  {
    method: 'post',
    path: '/dns_transfer',
    tag: RELAY_TAG,
    summary:
      "A secondary's AXFR/IXFR or signed query, relayed by a DNS front (Zone Transfer Relay token)",
    binaryBody: 'application/dns-message',
    result: 'binary',
  },
  {
    method: 'post',
    path: '/dns_notify',
    tag: RELAY_TAG,
    summary:
      'Relay a NOTIFY the DNS front received (Zone Transfer Relay token); answers the NOTIFY response to send back',
    body: dnsNotifySchema,
    result: z.object({
      message: z.string().nullable().meta({ description: 'The NOTIFY response, base64' }),
    }),
  },
]
