import { describe, expect, it } from 'vitest'
import { parseZoneFile } from './index.ts'

describe('parseZoneFile at scale', () => {
  it('parses 100,000 records', () => {
    const lines = ['$TTL 300']
    for (let k = 0; k < 100_000; k++) {
      lines.push(`host${k} IN A 10.${k >> 16}.${(k >> 8) & 255}.${k & 255}`)
    }
    const entries = parseZoneFile(lines.join('\n'), { origin: 'example.com' })
    expect(entries).toHaveLength(100_000)
    expect(entries[99_999]).toMatchObject({ name: 'host99999.example.com', rdata: '10.1.134.159' })
  })

  it('generates 100,000 records from one $GENERATE line under the default cap', () => {
    const entries = parseZoneFile('$GENERATE 1-100000 h$ A 10.0.0.1', {
      origin: 'example.com',
      defaultTtl: 60,
    })
    expect(entries).toHaveLength(100_000)
  })
})
