import { describe, expect, it } from 'vitest'
import { isLoopbackHost } from './loopback.ts'

describe('isLoopbackHost', () => {
  it('accepts localhost, 127.0.0.0/8 and the IPv6 loopback in any form, with any port', () => {
    for (const host of [
      'localhost',
      'LocalHost:1',
      '127.0.0.1',
      '127.255.0.9:8787',
      'localhost:65535',
      'localhost:0',
      '[::1]:65535',
      '[::1]',
      '[::1]:80',
      '::1',
      '[0:0:0:0:0:0:0:1]',
      '[0:0:0:0:0:0:0:1]:8787',
      '[0000::0001]',
    ])
      expect([host, isLoopbackHost(host)]).toEqual([host, true])
  })

  it('refuses every other host', () => {
    for (const host of [
      '',
      undefined,
      'rebind.example',
      '127.0.0.1.nip.io',
      '128.0.0.1',
      '127.0.0',
      '127.0.0.256',
      '[::2]',
      '[::ffff:127.0.0.1]',
      '[::1',
      '[::1]x',
      '0.0.0.0',
      'localhost.rebind.example',
      'user@127.0.0.1',
      // Ports no URL can hold: the worker's runtime could not make a URL of them (a 500).
      'localhost:99999',
      'localhost:65536',
      '127.0.0.1:123456',
      '[::1]:99999',
      '[::1]:65536',
      'localhost:',
      '[::1]:',
      'localhost:abc',
      'localhost:8787:1',
    ])
      expect([host, isLoopbackHost(host)]).toEqual([host, false])
  })

  it('agrees on a URL whatever part of it is given: host or hostname', () => {
    for (const url of ['http://[0:0:0:0:0:0:0:1]:8787/', 'http://127.1/', 'http://LOCALHOST/']) {
      const u = new URL(url)
      expect([url, isLoopbackHost(u.host)]).toEqual([url, isLoopbackHost(u.hostname)])
    }
  })
})
