import { describe, expect, it } from 'vitest'
import { parseZoneFile } from './index.ts'

const ZONE = [
  '; example.com zone',
  '$TTL 1h',
  '$ORIGIN Example.COM.',
  '@\tIN\tSOA\tns1 hostmaster.example.com. (',
  '\t\t2024010101 ; serial',
  '\t\t7200       ; refresh',
  '\t\t3600 1w    ; retry, expire',
  '\t\t300 )      ; minimum',
  '\tIN\tNS\tns1',
  '\t\tNS\tns2.example.net.',
  '@ 300 IN MX 10 mail',
  '  IN 600 MX 20 mail.backup.example.net.',
  'mail A 192.0.2.10',
  'www 1d30m CNAME @',
  'txt TXT "v=spf1 include:_spf.example.net ~all" "semi;colon" "quote\\"d" ; cf_tags=a:b',
  '_sip._tcp SRV 10 60 5060 sip',
  '@ CAA 0 issue "letsencrypt.org"',
  '$ORIGIN sub',
  'host\tAAAA 2001:db8::1',
  'Abs.Example.ORG. 60 A 198.51.100.1',
  '$GENERATE 1-3 dyn-$ A 10.0.0.$',
  'tail TYPE65534 \\# 2 0102',
  '',
].join('\r\n')

describe('parseZoneFile on a realistic zone', () => {
  const entries = parseZoneFile(ZONE, { origin: 'ignored.test' })

  it('produces one entry per record in file order', () => {
    expect(entries.map((e) => `${e.name} ${e.ttl} ${e.type} ${e.rdata}`)).toEqual([
      'example.com 3600 SOA ns1 hostmaster.example.com. 2024010101 7200 3600 1w 300',
      'example.com 3600 NS ns1',
      'example.com 3600 NS ns2.example.net.',
      'example.com 300 MX 10 mail',
      'example.com 600 MX 20 mail.backup.example.net.',
      'mail.example.com 3600 A 192.0.2.10',
      'www.example.com 88200 CNAME @',
      'txt.example.com 3600 TXT "v=spf1 include:_spf.example.net ~all" "semi;colon" "quote\\"d"',
      '_sip._tcp.example.com 3600 SRV 10 60 5060 sip',
      'example.com 3600 CAA 0 issue "letsencrypt.org"',
      'host.sub.example.com 3600 AAAA 2001:db8::1',
      'abs.example.org 60 A 198.51.100.1',
      'dyn-1.sub.example.com 3600 A 10.0.0.1',
      'dyn-2.sub.example.com 3600 A 10.0.0.2',
      'dyn-3.sub.example.com 3600 A 10.0.0.3',
      'tail.sub.example.com 3600 TYPE65534 \\# 2 0102',
    ])
  })

  it('reports the start line, origin and class of each record', () => {
    expect(entries[0]).toEqual({
      name: 'example.com',
      ttl: 3600,
      class: 'IN',
      type: 'SOA',
      rdata: 'ns1 hostmaster.example.com. 2024010101 7200 3600 1w 300',
      origin: 'example.com',
      comment: 'minimum',
      line: 4,
    })
    expect(entries.map((e) => e.line)).toEqual([
      4, 9, 10, 11, 12, 13, 14, 15, 16, 17, 19, 20, 21, 21, 21, 22,
    ])
    expect(entries[10]!.origin).toBe('sub.example.com')
    expect(entries.every((e) => e.class === 'IN')).toBe(true)
  })

  it('keeps the trailing comment of the record line without the semicolon', () => {
    expect(entries[7]!.comment).toBe('cf_tags=a:b')
    expect(entries[1]!.comment).toBeUndefined()
  })
})

describe('parseZoneFile owners', () => {
  const parse = (text: string) => parseZoneFile(text, { origin: 'example.com.', defaultTtl: 1 })

  it('resolves @, relative, absolute, wildcard and root owners', () => {
    const names = parse('@ A 1.1.1.1\n* A 1.1.1.1\na.b A 1.1.1.1\nx.y. A 1.1.1.1\n. NS a.\n')
    expect(names.map((e) => e.name)).toEqual([
      'example.com',
      '*.example.com',
      'a.b.example.com',
      'x.y',
      '.',
    ])
  })

  it('uses the previous owner for lines starting with blanks, across $ORIGIN changes', () => {
    const names = parse('www A 1.1.1.1\n$ORIGIN other.\n A 2.2.2.2\n\t AAAA ::1\n')
    expect(names.map((e) => [e.name, e.origin])).toEqual([
      ['www.example.com', 'example.com'],
      ['www.example.com', 'other'],
      ['www.example.com', 'other'],
    ])
  })

  it('resolves a relative $ORIGIN against the current origin and @ as the origin', () => {
    const names = parse('$ORIGIN eu\n@ A 1.1.1.1\n$ORIGIN west\nhost A 1.1.1.1\n')
    expect(names.map((e) => e.name)).toEqual(['eu.example.com', 'host.west.eu.example.com'])
  })

  it('keeps escaped dots inside a label and lowercases owners', () => {
    expect(parse('A\\.B A 1.1.1.1\n')[0]!.name).toBe('a\\.b.example.com')
  })

  it('accepts a root origin', () => {
    const entries = parseZoneFile('com. NS a.\nnet NS b.\n', { origin: '.', defaultTtl: 5 })
    expect(entries[1]).toMatchObject({ name: 'net', origin: '.' })
  })
})

describe('parseZoneFile rdata tokens', () => {
  const one = (text: string) => parseZoneFile(text, { origin: 'example.com', defaultTtl: 60 })[0]!

  it('joins tokens with one space and drops parentheses and inner comments', () => {
    const e = one('k TXT ( "part one"   ; first\n  "part two" )   ; last line\n')
    expect(e.rdata).toBe('"part one" "part two"')
    expect(e.comment).toBe('last line')
  })

  it('keeps quoted strings verbatim, with \\DDD, \\\\ and semicolons, parentheses inside', () => {
    const e = one('t TXT "a\\\\b\\034c;d(e)" plain\\;semi\n')
    expect(e.rdata).toBe('"a\\\\b\\034c;d(e)" plain\\;semi')
    expect(e.comment).toBeUndefined()
  })

  it('accepts nested parentheses like BIND', () => {
    expect(one('t TXT ( "a" ( "b" )\n "c" )\n').rdata).toBe('"a" "b" "c"')
  })

  it('splits adjacent quoted strings into separate tokens', () => {
    expect(one('t TXT "a""b"\n').rdata).toBe('"a" "b"')
  })

  it('passes unknown types through in upper case', () => {
    expect(one('x 60 in FooBar some data\n')).toMatchObject({ type: 'FOOBAR', rdata: 'some data' })
  })

  it('accepts class IN before the TTL and CLASS1 as IN', () => {
    expect(one('x IN 42 A 1.2.3.4\n').ttl).toBe(42)
    expect(one('x CLASS1 A 1.2.3.4\n').class).toBe('IN')
  })

  it('handles a file without a final newline and with a byte-order mark', () => {
    expect(one('\uFEFFx A 1.2.3.4').name).toBe('x.example.com')
  })

  it('returns no entries for an empty or comment-only file', () => {
    expect(parseZoneFile('  \n; nothing\r\n\t\n', { origin: 'example.com' })).toEqual([])
  })
})

describe('SVCB/HTTPS parameters with quoted values', () => {
  it('keeps alpn="h2,h3" as one token of the rdata', () => {
    const [e] = parseZoneFile('@ 300 IN HTTPS 1 . alpn="h2,h3" port=443 key65001="a b"\n', {
      origin: 'example.com',
    })
    expect(e!.rdata).toBe('1 . alpn="h2,h3" port=443 key65001="a b"')
  })

  it('keeps them whole in SVCB and in $GENERATE output too', () => {
    const text =
      '$TTL 60\ns SVCB 1 t. alpn="h2" mandatory=alpn\n$GENERATE 1-1 g$ HTTPS 1 . alpn="h$"\n'
    expect(parseZoneFile(text, { origin: 'example.com' }).map((e) => e.rdata)).toEqual([
      '1 t. alpn="h2" mandatory=alpn',
      '1 . alpn="h1"',
    ])
  })

  it('reads key="value" in any other type as BIND does: the quote starts a string of its own', () => {
    const text = '$TTL 60\nt TXT foo="bar baz"\nu TXT a="b"c\n$GENERATE 1-1 g$ TXT k="v $"\n'
    expect(parseZoneFile(text, { origin: 'example.com' }).map((e) => e.rdata)).toEqual([
      'foo= "bar baz"',
      'a= "b" c',
      'k= "v 1"',
    ])
  })
})
