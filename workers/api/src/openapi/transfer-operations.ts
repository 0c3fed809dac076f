/**
 * @module The zone-transfer actions and relays: a secondary zone's `force_axfr`, a primary zone's
 * `force_notify` (Cloudflare's routes), and the two routes a DNS front calls for secondaries'
 * transfers and primaries' NOTIFY (not Cloudflare's), with their response shapes.
 */
import { z } from 'zod'
import { dnsNotifySchema } from '../routes/dns-notify.ts'
import type { Operation } from './operation.ts'

const ZONE_TAG = 'Secondary DNS (zone)'
const RELAY_TAG = 'Zone transfer relay (DNS front)'

export const transferOps: Operation[] = [
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
