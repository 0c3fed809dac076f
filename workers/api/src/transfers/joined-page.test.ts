import { describe, expect, it } from 'vitest'
import { splitJoinedPage } from './joined-page.ts'
import type { TransferRow } from './transfer-row.ts'

const DEL = '\x7f'

/** A page as the joined query writes it: fields of each row, NULL as empty, joined by DEL. */
const join = (rows: TransferRow[]): string =>
  rows.map((r) => r.map((f) => (f === null ? '' : String(f))).join(DEL)).join(DEL)

const ROWS: TransferRow[] = [
  ['A', '192.0.2.1', null, 'www', null, 300],
  ['MX', 'mail.example.test', 10, 'example.test.', null, 1],
  ['TXT', '"a b" "c"', null, 'odd\\032label.x', null, 3600],
  ['CAA', '0 issue "ca.example"', null, '', '{"flags":0,"tag":"issue"}', 60],
  ['SRV', '5 5060 sip.example.test', 0, '_sip._tcp', '{"weight":5}', 120],
]

describe('a joined transfer page split into rows', () => {
  it('gives each record its six fields in order, empty priority and data as none', () => {
    expect(splitJoinedPage({ page: join(ROWS), records: ROWS.length })).toEqual(ROWS)
  })

  it('gives one record of a one-record page, and none of a page without records', () => {
    expect(splitJoinedPage({ page: join([ROWS[1]!]), records: 1 })).toEqual([ROWS[1]])
    expect(splitJoinedPage({ page: null, records: 0 })).toEqual([])
  })

  it('is refused (read again as rows) when a field holds the separator', () => {
    const odd: TransferRow[] = [ROWS[0]!, ['TXT', `"x${DEL}y"`, null, 'www', null, 300], ROWS[1]!]
    expect(splitJoinedPage({ page: join(odd), records: odd.length })).toBeNull()
    // Separators in fields that would make up whole records of their own are still counted.
    const forged = `TXT${DEL}"x"${DEL}${DEL}www${DEL}${DEL}300`
    const hiding: TransferRow[] = [['TXT', `"y"${DEL}${forged}`, null, 'a', null, 300]]
    expect(splitJoinedPage({ page: join(hiding), records: 1 })).toBeNull()
    const owner: TransferRow[] = [['A', '192.0.2.1', null, `w${DEL}w`, null, 300]]
    expect(splitJoinedPage({ page: join(owner), records: 1 })).toBeNull()
  })

  it('is refused when the page holds fewer records than counted (a row whose fields were NULL)', () => {
    expect(splitJoinedPage({ page: join(ROWS.slice(1)), records: ROWS.length })).toBeNull()
    expect(splitJoinedPage({ page: null, records: 2 })).toBeNull()
  })

  it('is refused when a number field (priority, TTL) is not a decimal integer, or the TTL is empty', () => {
    const page = (priority: string, ttl: string) =>
      ['MX', 'mail.example.test', priority, 'www', '', ttl].join(DEL)
    expect(splitJoinedPage({ page: page('10', '300'), records: 1 })).toEqual([
      ['MX', 'mail.example.test', 10, 'www', null, 300],
    ])
    for (const [priority, ttl] of [
      ['1x', '300'],
      ['-1', '300'],
      ['10', '3.5'],
      ['10', ''],
      ['10', ' 300'],
    ])
      expect(splitJoinedPage({ page: page(priority!, ttl!), records: 1 })).toBeNull()
  })
})
