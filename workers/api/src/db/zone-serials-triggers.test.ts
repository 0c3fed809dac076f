/**
 * The triggers noting each zone's (change_seq, serial) in `zone_serials` upsert: a zone row
 * written by an upsert (as an account move writes zones on the destination shard) onto a
 * (zone, seq) already noted does not fail, whatever conflict policy the upsert carries.
 */
import { env } from 'cloudflare:workers'
import { expect, it } from 'vitest'
import { createZone } from '../../../../test/api/helpers.ts'

it('an upsert of a zone row onto a serial already noted rewrites the note', async () => {
  const zone = await createZone('serial-upsert')
  const row = (await env.DB.prepare('SELECT change_seq, serial FROM zones WHERE id = ?1')
    .bind(zone.id)
    .first<{ change_seq: number; serial: number }>())!
  const seq = row.change_seq + 5
  await env.DB.prepare('INSERT INTO zone_serials (zone_id, seq, serial) VALUES (?1, ?2, 1)')
    .bind(zone.id, seq)
    .run()
  await env.DB.prepare(
    `INSERT INTO zones SELECT * FROM zones WHERE id = ?1
     ON CONFLICT (id) DO UPDATE SET change_seq = ?2, serial = ?3`
  )
    .bind(zone.id, seq, row.serial + 7)
    .run()
  const noted = await env.DB.prepare(
    'SELECT serial FROM zone_serials WHERE zone_id = ?1 AND seq = ?2'
  )
    .bind(zone.id, seq)
    .first<{ serial: number }>()
  expect(noted?.serial).toBe(row.serial + 7)
})
