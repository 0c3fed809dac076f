import type { ResponseRR } from '@edgedns/dns-wire'
import { describe, expect, it } from 'vitest'
import { planIxfr, type IxfrStep } from './index.ts'

const soaAt = (serial: number): ResponseRR => ({
  name: 'example.test',
  type: 6,
  ttl: 3600,
  rdata: `ns1.example.test. admin.example.test. ${serial} 7200 3600 1209600 300`,
})
const a = (name: string, ip: string, ttl = 300): ResponseRR => ({
  name: `${name}.example.test`,
  type: 1,
  ttl,
  rdata: ip,
})

const steps: IxfrStep[] = [
  { from: 10, to: 11, deleted: [a('old', '192.0.2.1')], added: [a('www', '192.0.2.2')] },
  { from: 11, to: 12, deleted: [a('www', '192.0.2.2')], added: [a('www', '192.0.2.3'), soaAt(12)] },
  { from: 12, to: 13, deleted: [a('mail', '192.0.2.9')], added: [a('mail', '192.0.2.9', 60)] },
]

/** `SOA serial` or `owner rdata/ttl` per record, for compact expectations. */
const show = (records: ResponseRR[]): string[] =>
  records.map((rr) =>
    rr.type === 6
      ? `SOA ${rr.rdata.split(' ')[2]}`
      : `${rr.name.split('.')[0]} ${rr.rdata}/${rr.ttl}`
  )

describe('planning an IXFR answer', () => {
  const cases: {
    name: string
    client: number
    current: number
    steps?: IxfrStep[]
    condense?: boolean
    expect: string[] | 'axfr'
  }[] = [
    { name: 'the current serial is up to date', client: 13, current: 13, expect: ['SOA 13'] },
    {
      name: 'a serial after ours (RFC 1982) is up to date',
      client: 20,
      current: 13,
      expect: ['SOA 13'],
    },
    { name: 'a serial beyond the log gets the AXFR form', client: 9, current: 13, expect: 'axfr' },
    {
      name: 'a log with a gap gets the AXFR form',
      client: 10,
      current: 13,
      steps: [steps[0]!, steps[2]!],
      expect: 'axfr',
    },
    {
      name: 'condensed: records added then deleted vanish, a TTL change is a deletion and an addition',
      client: 10,
      current: 13,
      expect: [
        'SOA 13',
        'SOA 10',
        'old 192.0.2.1/300',
        'mail 192.0.2.9/300',
        'SOA 13',
        'www 192.0.2.3/300',
        'mail 192.0.2.9/60',
        'SOA 13',
      ],
    },
    {
      name: 'one difference per step when not condensed (SOA records in the log ignored)',
      client: 11,
      current: 13,
      condense: false,
      expect: [
        'SOA 13',
        'SOA 11',
        'www 192.0.2.2/300',
        'SOA 12',
        'www 192.0.2.3/300',
        'SOA 12',
        'mail 192.0.2.9/300',
        'SOA 13',
        'mail 192.0.2.9/60',
        'SOA 13',
      ],
    },
    {
      name: 'the chain follows serials across the 2^32 wrap',
      client: 4294967295,
      current: 1,
      steps: [{ from: 4294967295, to: 1, deleted: [], added: [a('new', '192.0.2.7')] }],
      expect: ['SOA 1', 'SOA 4294967295', 'SOA 1', 'new 192.0.2.7/300', 'SOA 1'],
    },
  ]
  for (const c of cases) {
    it(c.name, () => {
      const plan = planIxfr({
        clientSerial: c.client,
        soa: soaAt(c.current),
        steps: c.steps ?? steps,
        condense: c.condense ?? true,
      })
      if (c.expect === 'axfr') expect(plan.kind).toBe('axfr')
      else if (plan.kind === 'axfr') throw new Error('unexpected AXFR form')
      else expect(show(plan.records)).toEqual(c.expect)
    })
  }
})

describe('an IXFR answer across SOA changes other than the serial', () => {
  // A secondary zone's SOA is its primary's: a change may move its refresh or its names as well.
  const soaOf = (serial: number, refresh: number, mname = 'ns1'): ResponseRR => ({
    ...soaAt(serial),
    rdata: `${mname}.example.test. admin.example.test. ${serial} ${refresh} 3600 1209600 300`,
  })
  const moved: IxfrStep[] = [
    { from: 10, to: 11, fromSoa: soaOf(10, 7200), deleted: [a('old', '192.0.2.1')], added: [] },
    {
      from: 11,
      to: 12,
      fromSoa: soaOf(11, 900, 'ns2'),
      deleted: [],
      added: [a('new', '192.0.2.2')],
    },
  ]
  const current = soaOf(12, 600, 'ns2')

  it('removes the SOA the client holds, exactly, in the condensed difference', () => {
    const plan = planIxfr({ clientSerial: 10, soa: current, steps: moved })
    if (plan.kind === 'axfr') throw new Error('unexpected AXFR form')
    expect(plan.records.map((rr) => rr.rdata)).toEqual([
      current.rdata,
      soaOf(10, 7200).rdata,
      '192.0.2.1',
      current.rdata,
      '192.0.2.2',
      current.rdata,
    ])
  })

  it('gives each step its own SOAs when not condensed', () => {
    const plan = planIxfr({ clientSerial: 10, soa: current, steps: moved, condense: false })
    if (plan.kind === 'axfr') throw new Error('unexpected AXFR form')
    expect(plan.records.filter((rr) => rr.type === 6).map((rr) => rr.rdata)).toEqual([
      current.rdata,
      soaOf(10, 7200).rdata,
      soaOf(11, 900, 'ns2').rdata,
      soaOf(11, 900, 'ns2').rdata,
      current.rdata,
      current.rdata,
    ])
  })
})
