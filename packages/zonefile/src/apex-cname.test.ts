import { describe, expect, it } from 'vitest'
import { APEX_CNAME_MARK, parseZoneFile, serializeZoneFile, uncommentApexCname } from './index.ts'

const SOA = {
  name: 'example.com',
  ttl: 3600,
  type: 'SOA',
  rdata: 'ns1.example.com. hostmaster.example.com. 1 7200 3600 1209600 300',
}

describe('a CNAME at the apex in a zone file', () => {
  const text = serializeZoneFile({
    origin: 'example.com',
    soa: SOA,
    records: [
      { name: 'example.com', ttl: 86400, type: 'NS', rdata: 'ns1.example.com.' },
      { name: 'Example.COM', ttl: 300, type: 'cname', rdata: 'target.example.net.', comment: 'x' },
      { name: 'www.example.com', ttl: 300, type: 'CNAME', rdata: 'example.com.' },
    ],
  })

  it('is written as a comment line after its mark; a CNAME below the apex is a record line', () => {
    const lines = text.split('\n')
    expect(lines).toContain(
      `${APEX_CNAME_MARK}example.com.\t300\tIN\tCNAME\ttarget.example.net. ; x`
    )
    expect(lines).toContain('www.example.com.\t300\tIN\tCNAME\texample.com.')
    // A server loading the file (and the parser as it is) does not see it.
    const parsed = parseZoneFile(text, { origin: 'example.com' })
    expect(parsed.map((e) => `${e.name} ${e.type}`)).toEqual([
      'example.com SOA',
      'example.com NS',
      'www.example.com CNAME',
    ])
  })

  it('is read back by uncommentApexCname, its comment kept, on the same line', () => {
    const parsed = parseZoneFile(uncommentApexCname(text, 'example.com.'), {
      origin: 'example.com',
    })
    const apex = parsed.find((e) => e.type === 'CNAME' && e.name === 'example.com')!
    expect(apex).toMatchObject({ rdata: 'target.example.net.', ttl: 300, comment: 'x' })
    expect(apex.line).toBe(text.split('\n').findIndex((l) => l.startsWith(APEX_CNAME_MARK)) + 1)
  })

  it('leaves other marked lines comments, and a text without the mark as it is', () => {
    const other = [
      `${APEX_CNAME_MARK}www.example.com.\t300\tIN\tCNAME\tt.example.net.`,
      `${APEX_CNAME_MARK}example.com.\t300\tIN\tA\t192.0.2.1`,
      `${APEX_CNAME_MARK}sub.example.com.\t300\tIN\tCNAME\tt.example.net.`,
      `x ${APEX_CNAME_MARK}example.com.\t300\tIN\tCNAME\tt.example.net.`,
    ].join('\n')
    expect(uncommentApexCname(other, 'example.com')).toBe(other)
    const plain = 'example.com. 300 IN A 192.0.2.1\n'
    expect(uncommentApexCname(plain, 'example.com')).toBe(plain)
    expect(uncommentApexCname(`${APEX_CNAME_MARK}EXAMPLE.com. IN CNAME t.`, 'example.com')).toBe(
      'EXAMPLE.com. IN CNAME t.'
    )
  })
})
