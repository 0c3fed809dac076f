import { describe, expect, it } from 'vitest'
import {
  formatSvcParams,
  parseLegacySvcParams,
  parseSvcParams,
  presentSvcParams,
} from './svcparams.ts'

const canon = (s: string) => formatSvcParams(parseSvcParams(s))

describe('SvcParams canonical form', () => {
  it.each([
    ['', ''],
    ['alpn=h2', 'alpn="h2"'],
    ['ALPN="h2,h3"', 'alpn="h2,h3"'],
    ['port=443 alpn=h3', 'alpn="h3" port=443'],
    ['ipv6hint=2001:DB8:0::1,::FFFF:1.2.3.4', 'ipv6hint=2001:db8::1,::ffff:1.2.3.4'],
    ['ipv4hint="192.0.2.1,192.0.2.2"', 'ipv4hint=192.0.2.1,192.0.2.2'],
    ['mandatory=port,alpn alpn=h2 port=8443', 'mandatory=alpn,port alpn="h2" port=8443'],
    ['alpn=h2 no-default-alpn', 'alpn="h2" no-default-alpn'],
    ['ech="AEn+DQBFKwAgACCp"', 'ech=AEn+DQBFKwAgACCp'],
    ['key1=h2', 'alpn="h2"'],
    ['key65000="opaque" key65001', 'key65000="opaque" key65001'],
    ['dohpath=/dns-query{?dns}', 'dohpath="/dns-query{?dns}"'],
    ['ohttp', 'ohttp'],
    // values are character-strings: escapes decoded, and the canonical form escapes what needs it
    ['dohpath=/q"(x{?dns}', 'dohpath="/q\\"(x{?dns}"'],
    ['dohpath="/a b;c\\\\d{?dns}"', 'dohpath="/a b;c\\\\d{?dns}"'],
    ['dohpath=/\\064{?dns}', 'dohpath="/@{?dns}"'],
    ['key65000="a\nb"', 'key65000="a\\010b"'],
    ['key65000=\\255\\000', 'key65000="\\255\\000"'],
    ['key65000="x\\"y" key9=(;)', 'key9="(;)" key65000="x\\"y"'],
    ['key65000=""', 'key65000'],
    ['dohpath=/q{+dns,x:3}', 'dohpath="/q{+dns,x:3}"'],
  ])('%j -> %j', (input, want) => {
    expect(canon(input)).toBe(want)
  })

  it('returns structured params in key-number order', () => {
    expect(parseSvcParams('port=443 alpn=h2')).toEqual([
      { key: 'alpn', code: 1, value: 'h2' },
      { key: 'port', code: 3, value: '443' },
    ])
  })

  it.each([
    ['alpn=h2 alpn=h3', /more than once/],
    ['port=x', /port/],
    ['alpn', /needs a value/],
    ['alpn=h2,,h3', /empty list item/],
    ['no-default-alpn=1 alpn=h2', /takes no value/],
    ['mandatory=mandatory', /must not list itself/],
    ['mandatory=alpn,alpn alpn=h2', /twice/],
    ['key65535=x', /unknown SvcParam key/],
    ['ech=???', /base64/],
    ['ipv6hint=1.2.3.4', /ipv6hint/],
    ['alpn="h2', /unterminated/],
    ['alpn="h2"x', /must be followed by a space/],
    ['alpn=h2\\,h3', /backslash/],
    ['alpn="h2\\"x"', /backslash/],
    ['dohpath="/q\n{?dns}"', /control characters/],
    ['dohpath=/q"(x', /must contain the "dns" variable/],
    ['dohpath=dns{?dns}', /must start with/],
    ['dohpath=/q{?dns', /unbalanced/],
    ['dohpath=/q{?d-ns}', /invalid expression/],
    ['dohpath=/q{?dnsx}', /must contain the "dns" variable/],
    ['dohpath=/\\255{?dns}', /UTF-8/],
    ['key65000=\\999', /bad escape/],
    ['key65000="x\\', /unterminated/],
  ])('rejects %j', (input, reason) => {
    expect(() => parseSvcParams(input)).toThrow(reason)
  })
})

describe('SvcParams as the earlier parser stored them', () => {
  it.each([
    ['dohpath="/q"(x{?dns}"', 'dohpath="/q\\"(x{?dns}"'],
    ['alpn="h2" key65000="a"b c" port=443', 'alpn="h2" port=443 key65000="a\\"b c"'],
    ['alpn="h2,h3" ohttp', 'alpn="h2,h3" key8'],
  ])("presents %j in today's escaped form", (stored, presented) => {
    expect(presentSvcParams(stored)).toBe(presented)
  })

  it('reads a canonical value unchanged', () => {
    const canonical = 'alpn="h2" dohpath="/q\\"(x{?dns}"'
    expect(formatSvcParams(parseLegacySvcParams(canonical))).toBe(canonical)
  })

  it('refuses, naming why, a value invalid even as stored', () => {
    expect(() => presentSvcParams('dohpath="/q"(x"')).toThrow(/must contain the "dns" variable/)
  })
})
