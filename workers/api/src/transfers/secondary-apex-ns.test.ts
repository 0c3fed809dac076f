/**
 * A secondary zone serves the apex NS set its primary transferred, with the primary's TTL (as BIND
 * and Knot secondaries do): a stored apex NS set is the zone's whole set, with its own TTL.
 */
import { env } from 'cloudflare:workers'
import type { MessageRR } from '@edgedns/dns-wire'
import { describe, expect, it } from 'vitest'
import { createZone, dohJson } from '../../../../test/api/helpers.ts'
import { settle } from '../builder/test/helpers.ts'
import { builderStub } from '../commit/zone-change.ts'
import { TransferStage } from './transfer-commit.ts'

const rr = (
  name: string,
  type: string,
  typeCode: number,
  ttl: number,
  data: string
): MessageRR => ({
  name: `${name}.`,
  type,
  typeCode,
  class: 1,
  ttl,
  data,
})

describe('the apex NS set of a secondary zone', () => {
  it("a secondary zone serves its primary's apex NS TTL", async () => {
    const { id, name } = await createZone('sec-apex-ns', 'secondary')
    const row = (await env.DB.prepare('SELECT version, change_seq, serial FROM zones WHERE id = ?1')
      .bind(id)
      .first<{ version: number; change_seq: number; serial: number }>())!
    const stage = new TransferStage(env.DB, { zoneId: id, zoneName: name })
    try {
      await stage.sink('add', rr(name, 'NS', 2, 3600, 'ns1.primary.test.'))
      await stage.sink('add', rr(name, 'NS', 2, 3600, 'ns2.primary.test.'))
      await stage.commit({
        guard: { version: row.version, changeSeq: row.change_seq, serial: row.serial },
        soa: rr(
          name,
          'SOA',
          6,
          3600,
          'ns1.primary.test. hostmaster.primary.test. 7 3600 600 86400 300'
        ),
        replace: true,
      })
    } finally {
      await stage.discard()
    }
    await builderStub(env, id).notify(id, row.change_seq + 1)
    await settle(id)
    const ns = await dohJson(name, 'NS')
    expect(ns.Status).toBe(0)
    expect(ns.Answer?.map((a) => a.TTL)).toEqual([3600, 3600])
  })
})
