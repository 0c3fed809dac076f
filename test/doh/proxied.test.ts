/**
 * Proxied A/AAAA/CNAME: answered with the zone's proxy addresses (ZoneMeta.proxy), TTL 300.
 */
import { beforeAll, describe } from 'vitest'
import { seedZone } from './helpers/seed.ts'
import { runCases } from './helpers/table.ts'

beforeAll(async () => {
  await seedZone(
    'proxy.test',
    `
@      3600 IN SOA   ns1 hostmaster 1 7200 3600 1209600 300
web    3600 IN A     192.0.2.1 ; cf_tags=cf-proxied:true
alias  3600 IN CNAME origin.example.net. ; cf_tags=cf-proxied:true
plain  3600 IN A     192.0.2.3 ; cf_tags=cf-proxied:false
`
  )
  await seedZone(
    'noproxy.test',
    `
@      3600 IN SOA   ns1 hostmaster 1 7200 3600 1209600 300
web    3600 IN A     192.0.2.1 ; cf_tags=cf-proxied:true
`,
    { proxy: { ipv4: [], ipv6: [] } }
  )
})

const SOA = 'proxy.test. 300 SOA ns1.proxy.test. hostmaster.proxy.test. 1 7200 3600 1209600 300'

describe('proxied', () => {
  runCases([
    {
      name: 'proxied A answers the zone proxy IPv4',
      qname: 'web.proxy.test',
      qtype: 'A',
      answer: ['web.proxy.test. 300 A 203.0.113.10', 'web.proxy.test. 300 A 203.0.113.11'],
      cache: 'max-age=300',
    },
    {
      name: 'proxied A-only name answers AAAA with the proxy IPv6',
      qname: 'web.proxy.test',
      qtype: 'AAAA',
      answer: ['web.proxy.test. 300 AAAA 2001:db8:cf::10'],
    },
    {
      name: 'proxied CNAME answers A with the proxy',
      qname: 'alias.proxy.test',
      qtype: 'A',
      answer: ['alias.proxy.test. 300 A 203.0.113.10', 'alias.proxy.test. 300 A 203.0.113.11'],
    },
    {
      name: 'proxied CNAME hides its target',
      qname: 'alias.proxy.test',
      qtype: 'CNAME',
      authority: [SOA],
    },
    {
      name: 'unproxied answers as stored',
      qname: 'plain.proxy.test',
      qtype: 'A',
      answer: ['plain.proxy.test. 3600 A 192.0.2.3'],
      cache: 'max-age=3600',
    },
    {
      name: 'no proxy addresses configured: NODATA',
      qname: 'web.noproxy.test',
      qtype: 'A',
      authority: [
        'noproxy.test. 300 SOA ns1.noproxy.test. hostmaster.noproxy.test. 1 7200 3600 1209600 300',
      ],
    },
  ])
})
