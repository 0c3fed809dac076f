/**
 * @module Test helper: the clock, TSIG key and zone SOA the tests of answering transfers share.
 */
import type { ResponseRR } from '@edgedns/dns-wire'
import { parseTsigKey } from './tsig-key.ts'

export const NOW = 1_800_000_000
export const key = parseTsigKey('xfr-key:c2VjcmV0LXNoYTI1Ni1rZXktbWF0ZXJpYWw=')
export const soa: ResponseRR = {
  name: 'example.test',
  type: 6,
  ttl: 3600,
  rdata: 'ns1.example.test. admin.example.test. 5 7200 3600 1209600 300',
}
