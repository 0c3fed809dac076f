/**
 * @module The incoming-transfer operations: a secondary zone's `force_axfr`, and the NOTIFY relay
 * the DNS front calls, with their response shapes.
 */
import { z } from 'zod'
import { dnsNotifySchema } from '../routes/dns-notify.ts'
import type { Operation } from './operation.ts'

export const secondaryDnsInOps: Operation[] = [
  {
    method: 'post',
    path: '/zones/{zone_id}/secondary_dns/force_axfr',
    tag: 'Secondary DNS (zone)',
    summary:
      'Pull a full AXFR of a secondary zone from its primaries now; "OK" once it is committed',
    result: z.literal('OK'),
  },
  {
    method: 'post',
    path: '/dns_notify',
    tag: 'Secondary DNS (zone)',
    summary:
      'Relay a NOTIFY the DNS front received (administrator token); answers the NOTIFY response to send back',
    body: dnsNotifySchema,
    result: z.object({
      message: z.string().nullable().meta({ description: 'The NOTIFY response, base64' }),
    }),
  },
]
