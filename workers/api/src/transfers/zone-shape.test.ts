/**
 * A transfer that would leave a secondary zone in a shape no server may serve is not committed
 * (zone-shape.ts): a CNAME beside other records at one name, two CNAMEs at one name, or, after an
 * IXFR, no NS records at the apex. The copy held stays as it was. (A whole zone without apex NS
 * is refused as it arrives: packages/zone-transfer's TransferSequence.)
 */
import { createZone } from '../../../../test/api/helpers.ts'
import { heldRecords } from '../../../../test/api/incoming-rows.ts'
import { describe, expect, it } from 'vitest'
import { a, apexNs, rr, transfer, type Step, type Zone } from './ixfr-test-transfers.ts'
import { BadZoneShape } from './transfer-errors.ts'

const cname = (zone: string, label: string, target: string) =>
  rr(zone, label, 'CNAME', 5, `${target}.${zone}.`)
const adds = (...records: ReturnType<typeof a>[]): Step[] => records.map((r) => ['add', r])

/** A secondary zone holding `a(1)`, `a(2)` and the apex NS at serial 10. */
async function held(label: string): Promise<Zone> {
  const zone = await createZone(label, 'secondary')
  await transfer(zone, adds(a(zone.name, 1), a(zone.name, 2)), 10, true)
  return zone
}

describe('a transfer that would leave a CNAME beside other data', () => {
  it('is not committed as an AXFR, replaced whole or as a difference, and the copy stays', async () => {
    for (const fresh of [true, false]) {
      const zone = fresh ? await createZone('shape-axfr', 'secondary') : await held('shape-diff')
      const before = await heldRecords(zone.id)
      const beside = [a(zone.name, 1), cname(zone.name, 'r-1', 'r-2'), a(zone.name, 2)]
      const twice = [cname(zone.name, 'c', 'r-1'), cname(zone.name, 'c', 'r-2'), a(zone.name, 1)]
      for (const records of [beside, twice]) {
        await expect(transfer(zone, adds(...records), 11, true)).rejects.toBeInstanceOf(
          BadZoneShape
        )
        expect(await heldRecords(zone.id)).toEqual(before)
      }
    }
  })

  it('is not committed as an IXFR that adds a CNAME at a name holding data, or data at a CNAME', async () => {
    const zone = await held('shape-ixfr')
    const before = await heldRecords(zone.id)
    await expect(transfer(zone, adds(cname(zone.name, 'r-1', 'r-2')), 11, false)).rejects.toThrow(
      /CNAME beside other records/
    )
    expect(await heldRecords(zone.id)).toEqual(before)
    // A CNAME that replaces the name's data applies, and data added beside it then does not.
    const replaced: Step[] = [
      ['delete', a(zone.name, 1)],
      ['add', cname(zone.name, 'r-1', 'r-2')],
    ]
    await transfer(zone, replaced, 11, false)
    await expect(transfer(zone, adds(a(zone.name, 1)), 12, false)).rejects.toBeInstanceOf(
      BadZoneShape
    )
    expect(await heldRecords(zone.id)).toContain(`r-1.${zone.name} 300 CNAME - r-2.${zone.name}`)
  })
})

describe('an IXFR that removes the apex NS records', () => {
  it('is not committed, unless it adds others', async () => {
    const zone = await held('shape-ns')
    const before = await heldRecords(zone.id)
    await expect(transfer(zone, [['delete', apexNs(zone.name)]], 11, false)).rejects.toThrow(
      /no NS records at its apex/
    )
    expect(await heldRecords(zone.id)).toEqual(before)
    const other = rr(zone.name, '@', 'NS', 2, 'ns2.primary.test.')
    await transfer(
      zone,
      [
        ['delete', apexNs(zone.name)],
        ['add', other],
      ],
      11,
      false
    )
    expect(await heldRecords(zone.id)).toContain(`${zone.name} 300 NS - ns2.primary.test`)
  })
})
