/**
 * A CNAME at the zone apex in the export: a comment line after its mark (no server loads a CNAME
 * beside the apex SOA and NS), which the import reads back as the record, comment and proxy status
 * included (packages/zonefile/src/apex-cname.ts).
 */
import { describe, expect, it } from 'vitest'
import { APEX_CNAME_MARK } from '../../packages/zonefile/src/index.ts'
import { api, createZone } from './helpers.ts'
import { exportZone, importZone } from './import-export-helpers.ts'

describe('an apex CNAME exported and imported back', () => {
  it('is exported as a marked comment line, and importing the export restores it', async () => {
    const zone = await createZone('apex-cname')
    const made = await api('POST', `/zones/${zone.id}/dns_records`, {
      type: 'CNAME',
      name: zone.name,
      content: 'target.example.net',
      ttl: 600,
      proxied: false,
      comment: 'flattened',
    })
    expect(made.status).toBe(200)
    const exported = await exportZone(zone.id)
    const lines = exported.text.split('\n')
    expect(lines).toContain(
      `${APEX_CNAME_MARK}${zone.name}.\t600\tIN\tCNAME\ttarget.example.net. ; flattened cf_tags=cf-proxied:false`
    )
    expect(lines.filter((l) => /\tCNAME\t/.test(l) && !l.startsWith(';'))).toEqual([])
    // Paged export writes it the same way.
    const res = await api('GET', `/zones/${zone.id}/dns_records/export?per_page=1`)
    expect(String(res.body)).toContain(`${APEX_CNAME_MARK}${zone.name}.\t600\tIN\tCNAME\t`)

    expect(
      (await api('DELETE', `/zones/${zone.id}/dns_records/${made.body.result.id}`)).status
    ).toBe(200)
    const imported = await importZone(zone.id, exported.text)
    expect(imported.status, JSON.stringify(imported.body)).toBe(200)
    expect(imported.body.result.recs_added).toBe(1)
    const list = await api('GET', `/zones/${zone.id}/dns_records?type=CNAME`)
    expect(list.body.result).toMatchObject([
      {
        name: zone.name,
        content: 'target.example.net',
        ttl: 600,
        proxied: false,
        comment: 'flattened',
      },
    ])
  })
})
