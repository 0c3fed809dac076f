/**
 * The dashboard's zone transfer forms without a browser: account list items ⇄ form values ⇄ API
 * bodies (a peer's cleared address and key left out, as PUT clears them), primaries kept in the
 * order picked, the API's field-prefixed errors placed on their fields, and the copy's report.
 */
import { describe, expect, it } from 'vitest'
// prettier-ignore
// @ts-expect-error plain ESM modules of the dashboard (bundled by workers/dashboard/build.mjs)
import { ACCOUNT_LISTS, duration, failedText, incomingBody, incomingValues, peerAddress, servingText, skippedLines, togglePeer, transferErrors } from '../../workers/dashboard/src/transfer-forms.js'

const list = (path: string) => ACCOUNT_LISTS.find((l: { path: string }) => l.path === path)
const failure = (...messages: string[]) => ({
  errors: messages.map((message) => ({ code: 1004, message })),
})

describe('the account lists of the transfer page', () => {
  it('makes a peer body from its form, leaving out an empty address, port and key', () => {
    const peers = list('peers')
    const values = peers.toValues({ id: 'p', name: 'ns1', ixfr_enable: false })
    expect(values).toEqual({ name: 'ns1', ip: '', port: '', ixfr_enable: 'false', tsig_id: '' })
    expect(peers.toBody(values)).toEqual({ name: 'ns1', ixfr_enable: false })
    const full = {
      ...values,
      ip: ' 2001:db8::53 ',
      port: '5353',
      ixfr_enable: 'true',
      tsig_id: 'k',
    }
    expect(peers.toBody(full)).toEqual({
      name: 'ns1',
      ip: '2001:db8::53',
      port: 5353,
      ixfr_enable: true,
      tsig_id: 'k',
    })
    // Text that is no number goes as text, for the API to name the field.
    expect(peers.toBody({ ...full, port: 'fifty' }).port).toBe('fifty')
  })

  it('round-trips a peer, a TSIG key and an ACL through their forms', () => {
    const items = {
      peers: { id: 'p', name: 'ns1', ip: '192.0.2.53', port: 53, ixfr_enable: true, tsig_id: 'k' },
      tsigs: {
        id: 'k',
        name: 'xfr.example',
        algo: 'hmac-sha512.',
        secret: 'c2VjcmV0LXNlY3JldC1zZWNyZXQ=',
      },
      acls: { id: 'a', name: 'office', ip_range: '192.0.2.0/24' },
    } as Record<string, Record<string, unknown>>
    for (const [path, item] of Object.entries(items)) {
      const kind = list(path)
      const { id: _, ...body } = item
      expect(kind.toBody(kind.toValues(item))).toEqual(body)
    }
  })

  it('offers the account’s keys in a peer’s form and names them in the table', () => {
    const tsigs = [{ id: 'k1', name: 'xfr.example', algo: 'hmac-sha256.', secret: 'x' }]
    const field = list('peers')
      .fields({ tsigs })
      .find((f: { key: string }) => f.key === 'tsig_id')
    expect(field.options).toEqual([
      { value: '', label: 'None (unsigned)' },
      { value: 'k1', label: 'xfr.example' },
    ])
    const key = list('peers').columns.find(([h]: [string]) => h === 'TSIG key')[1]
    expect(key({ tsig_id: 'k1' }, { tsigs })).toBe('xfr.example')
    expect(key({}, { tsigs })).toBe('none')
  })

  it('shows a peer’s address with its port, IPv6 in brackets', () => {
    expect(peerAddress({ ip: '192.0.2.1', port: 5300 })).toBe('192.0.2.1:5300')
    expect(peerAddress({ ip: '2001:db8::1' })).toBe('[2001:db8::1]:53')
    expect(peerAddress({})).toBe('no address yet')
  })
})

describe('a zone’s transfer settings', () => {
  const zone = { id: 'z', name: 'example.com' }

  it('keeps primaries in the order picked', () => {
    let peers = togglePeer([], 'b', true)
    peers = togglePeer(peers, 'a', true)
    expect(peers).toEqual(['b', 'a'])
    expect(togglePeer(peers, 'b', false)).toEqual(['a'])
    expect(togglePeer(['a', 'b'], 'a', true)).toEqual(['b', 'a'])
  })

  it('makes the incoming body with the zone’s name and a numeric refresh', () => {
    const values = { ...incomingValues(null), peers: ['p1', 'p2'] }
    expect(values.auto_refresh_seconds).toBe('86400')
    expect(incomingBody(zone, { ...values, auto_refresh_seconds: '3600' })).toEqual({
      name: 'example.com',
      peers: ['p1', 'p2'],
      auto_refresh_seconds: 3600,
    })
    expect(incomingValues({ peers: ['x'], auto_refresh_seconds: 600 })).toEqual({
      peers: ['x'],
      auto_refresh_seconds: '600',
    })
  })

  it('places errors that name a field on it, the rest on the form', () => {
    expect(
      transferErrors(
        failure(
          'auto_refresh_seconds: must be at least 300',
          'peers: 0123 is no peer of this account',
          'name is taken'
        ),
        ['peers', 'auto_refresh_seconds', 'name']
      )
    ).toEqual({
      auto_refresh_seconds: 'auto_refresh_seconds: must be at least 300',
      peers: 'peers: 0123 is no peer of this account',
      _form: 'name is taken',
    })
    expect(transferErrors(failure('ip: not an address', 'port.0: bad'), ['name'])).toEqual({
      _form: 'ip: not an address; port.0: bad',
    })
  })

  it('says whether the zone serves and why not, and how its checks failed', () => {
    expect(servingText({ serving: true, soa_serial: 5 })).toBe('yes')
    expect(servingText({ serving: false })).toBe('no: it holds no copy yet')
    expect(servingText({ serving: false, soa_serial: 5 })).toMatch(/passed the SOA expire/)
    expect(failedText({ failed_checks: 3, last_error: 'refused' })).toBe(
      'The last 3 checks of the primaries failed: refused'
    )
    expect(failedText({ failed_checks: 1, last_error: 'timeout' })).toBe(
      'The last check of the primaries failed: timeout'
    )
  })

  it('says what the copy lacks, one line a type, and durations as people read them', () => {
    expect(
      skippedLines([
        { type: 'NSEC3', count: 1200, reason: 'DNSSEC records are made here' },
        { type: 'WKS', count: 1, reason: 'type not supported' },
      ])
    ).toEqual([
      '1,200 NSEC3 records: DNSSEC records are made here',
      '1 WKS record: type not supported',
    ])
    expect(skippedLines(undefined)).toEqual([])
    expect(duration(86400)).toBe('1 d')
    expect(duration(3690)).toBe('1 h 1 min 30 s')
    expect(duration(0)).toBe('0 s')
  })
})
