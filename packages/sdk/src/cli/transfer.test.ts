import { describe, expect, it } from 'vitest'
import { envelope, failure, scripted, type Call } from '../test-fetch.ts'
import { main } from './main.ts'

const ZONE = 'a'.repeat(32)
const ACCOUNT = 'b'.repeat(32)
const PEER = 'c'.repeat(32)

function io() {
  const out: string[] = []
  const err: string[] = []
  return {
    io: {
      env: { EDGEDNS_URL: 'http://dns.test', EDGEDNS_TOKEN: 't' },
      stdout: { write: (s: string) => out.push(s) },
      stderr: { isTTY: false, write: (s: string) => err.push(s) },
    },
    out,
    err,
  }
}

const zone = (type: string) => ({
  id: ZONE,
  name: 'example.com',
  type,
  account: { id: ACCOUNT, name: 'acct' },
})

/** Answers by method and path (after /client/v4); anything else is a 404 the test did not expect. */
function api(routes: Record<string, () => Response>) {
  return scripted((c: Call) => {
    const key = `${c.method} ${c.url.pathname.replace('/client/v4', '')}`
    const route = routes[key]
    return route ? route() : failure(404, 7003, `unexpected ${key}`)
  })
}

async function run(argv: string[], fetch: unknown) {
  const x = io()
  const code = await main(argv, x.io, fetch as typeof globalThis.fetch)
  return { code, out: x.out.join(''), err: x.err.join('') }
}

describe('edgedns transfer', () => {
  it("status of a secondary zone: serving, its copy's serial, primaries by name, the checks", async () => {
    const { fetch } = api({
      [`GET /zones/${ZONE}`]: () => envelope(zone('secondary')),
      [`GET /zones/${ZONE}/secondary_dns/incoming`]: () =>
        envelope({
          id: ZONE,
          name: 'example.com',
          peers: [PEER],
          auto_refresh_seconds: 3600,
          soa_serial: 2025010101,
          checked_time: '2026-11-28T10:00:00.000Z',
          serving: true,
          failed_checks: 2,
          last_error: 'primary 192.0.2.1#53: connection refused',
          next_check_time: '2026-11-28T10:10:00.000Z',
          expires_time: '2026-12-05T10:00:00.000Z',
          skipped_records: [{ type: 'NSEC3PARAM', count: 1, reason: 'signed at the edge' }],
        }),
      [`GET /accounts/${ACCOUNT}/secondary_dns/peers`]: () =>
        envelope([{ id: PEER, name: 'hidden-primary', ip: '192.0.2.1', port: 5353 }]),
    })
    const r = await run(['transfer', 'status', ZONE], fetch)
    expect(r.code).toBe(0)
    expect(r.out.split('\n')).toEqual([
      'example.com: secondary zone, serving, serial 2025010101',
      '  primaries: hidden-primary 192.0.2.1#5353',
      '  refresh: at least every 3600 s',
      '  last good check: 2026-11-28T10:00:00.000Z',
      '  next check: 2026-11-28T10:10:00.000Z',
      '  expires: 2026-12-05T10:00:00.000Z',
      '  failed checks: 2: primary 192.0.2.1#53: connection refused',
      '  not served: 1 NSEC3PARAM (signed at the edge)',
      '',
    ])
  })

  it('status names peers by id when the token may not list them, and prints JSON with --json', async () => {
    const incoming = { id: ZONE, name: 'example.com', peers: [PEER], serving: false }
    const { fetch } = api({
      [`GET /zones/${ZONE}`]: () => envelope(zone('secondary')),
      [`GET /zones/${ZONE}/secondary_dns/incoming`]: () =>
        envelope({ ...incoming, auto_refresh_seconds: 86400 }),
      [`GET /accounts/${ACCOUNT}/secondary_dns/peers`]: () =>
        failure(403, 10000, 'Authentication error'),
    })
    const text = await run(['transfer', 'status', ZONE], fetch)
    expect(text.out).toContain('secondary zone, not serving, no copy held')
    expect(text.out).toContain(`primaries: ${PEER}`)
    const json = await run(['transfer', 'status', ZONE, '--json'], fetch)
    expect(JSON.parse(json.out)).toMatchObject({
      zone: { id: ZONE, type: 'secondary' },
      incoming: { ...incoming, auto_refresh_seconds: 86400 },
    })
  })

  it('status of a primary zone: outgoing transfers and their state, or none', async () => {
    let outgoing = true
    const { fetch } = api({
      [`GET /zones/${ZONE}`]: () => envelope(zone('full')),
      [`GET /zones/${ZONE}/secondary_dns/outgoing`]: () =>
        outgoing
          ? envelope({
              id: ZONE,
              name: 'example.com',
              peers: [PEER],
              soa_serial: 7,
              last_transferred_time: '2026-11-28T09:00:00.000Z',
            })
          : failure(404, 10203, 'outgoing transfers not found'),
      [`GET /zones/${ZONE}/secondary_dns/outgoing/status`]: () =>
        envelope(outgoing ? 'Enabled' : 'Disabled'),
      [`GET /accounts/${ACCOUNT}/secondary_dns/peers`]: () =>
        envelope([{ id: PEER, name: 'bind', ip: '192.0.2.9', port: 53 }]),
    })
    expect((await run(['transfer', 'status', ZONE], fetch)).out).toBe(
      [
        'example.com: full zone, outgoing transfers Enabled, serial 7',
        '  secondaries: bind 192.0.2.9',
        '  last transferred: 2026-11-28T09:00:00.000Z',
        '',
      ].join('\n')
    )
    outgoing = false
    expect((await run(['transfer', 'status', ZONE], fetch)).out).toBe(
      'example.com: full zone, no outgoing transfers\n'
    )
  })

  it('axfr pulls now and prints the serial; a failure exits 1 naming it', async () => {
    let up = true
    const { fetch, calls } = api({
      [`POST /zones/${ZONE}/secondary_dns/force_axfr`]: () =>
        up ? envelope('OK') : failure(502, 10031, 'primary 192.0.2.1#53: timed out'),
      [`GET /zones/${ZONE}/secondary_dns/incoming`]: () =>
        envelope({ id: ZONE, peers: [], soa_serial: 42, serving: true }),
    })
    expect(await run(['transfer', 'axfr', ZONE], fetch)).toMatchObject({
      code: 0,
      out: 'transferred: serial 42\n',
    })
    expect(calls[0]!.method).toBe('POST')
    up = false
    const failed = await run(['transfer', 'axfr', ZONE], fetch)
    expect(failed.code).toBe(1)
    expect(failed.err).toContain('primary 192.0.2.1#53: timed out (api 502, code 10031)')
  })

  it('notify sends a NOTIFY now; an unknown subcommand exits 2 with usage', async () => {
    const { fetch, calls } = api({
      [`POST /zones/${ZONE}/secondary_dns/outgoing/force_notify`]: () => envelope('OK'),
    })
    expect(await run(['transfer', 'notify', ZONE], fetch)).toMatchObject({
      code: 0,
      out: 'notify sent\n',
    })
    expect(calls).toHaveLength(1)
    const bad = await run(['transfer', 'sync', ZONE], fetch)
    expect(bad.code).toBe(2)
    expect(bad.err).toContain('usage: edgedns transfer status|axfr|notify <zone>')
  })
})
