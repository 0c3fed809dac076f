/**
 * The DNS front's log of what its limits refused (front-refusals.mjs), on its own clock: a
 * network's first refusal is logged at once and the rest counted into one line per interval, by
 * the setting that refused them; each network has its own interval; past the lines an interval
 * allows, and for networks whose state was dropped, the counts go into one joint line.
 */
import { describe, expect, it } from 'vitest'
// @ts-expect-error plain ESM module
import { refusalLog } from './front-refusals.mjs'

interface RefusalLog {
  note(address: string, setting: string): void
  flush(): void
  close(): void
}

/** A refusal log on a clock the test moves (`at(ms)`), its lines in `lines`. */
function clocked(options: object = {}) {
  let t = 0
  const lines: string[] = []
  const log: RefusalLog = refusalLog({ log: lines.push.bind(lines), now: () => t, ...options })
  const at = (ms: number) => {
    t = ms
    log.flush()
  }
  return { log, lines, at }
}

describe('the refusal log', () => {
  it('logs a network at once, then at most once an interval, counting by setting', () => {
    const { log, lines, at } = clocked()
    try {
      log.note('192.0.2.1', 'DNS_FRONT_RELAY_CLIENT_RATE')
      expect(lines).toEqual([
        'dns front: limits refused 1 (DNS_FRONT_RELAY_CLIENT_RATE 1) from 192.0.2.0/24',
      ])
      for (let i = 0; i < 1000; i++) log.note(`192.0.2.${i % 250}`, 'DNS_FRONT_RELAY_CLIENT_RATE')
      for (let i = 0; i < 3; i++) log.note('192.0.2.7', 'DNS_FRONT_TCP_CLIENTS')
      at(9_999)
      expect(lines).toHaveLength(1)
      at(10_000)
      expect(lines.slice(1)).toEqual([
        'dns front: limits refused 1003 (DNS_FRONT_RELAY_CLIENT_RATE 1000, DNS_FRONT_TCP_CLIENTS 3) from 192.0.2.0/24',
      ])
      at(30_000) // nothing refused since: nothing to say
      expect(lines).toHaveLength(2)
      log.note('192.0.2.1', 'DNS_FRONT_RELAY_UDP_CONCURRENCY') // quiet for an interval: at once
      expect(lines).toHaveLength(3)
      expect(lines[2]).toContain('refused 1 (DNS_FRONT_RELAY_UDP_CONCURRENCY 1)')
    } finally {
      log.close()
    }
  })

  it('gives each network its own line and interval (IPv6 by /56)', () => {
    const { log, lines, at } = clocked()
    try {
      log.note('192.0.2.1', 'DNS_FRONT_RELAY_CONCURRENCY')
      at(5_000)
      log.note('2001:db8:0:1ff::1', 'DNS_FRONT_RELAY_CONCURRENCY')
      log.note('2001:db8:0:100::2', 'DNS_FRONT_RELAY_CONCURRENCY')
      log.note('192.0.2.2', 'DNS_FRONT_RELAY_CONCURRENCY')
      expect(lines).toEqual([
        'dns front: limits refused 1 (DNS_FRONT_RELAY_CONCURRENCY 1) from 192.0.2.0/24',
        'dns front: limits refused 1 (DNS_FRONT_RELAY_CONCURRENCY 1) from 2001:db8:0:100::/56',
      ])
      at(10_000) // the IPv4 network's interval is over; the IPv6 one's is not
      expect(lines[2]).toMatch(/refused 1 \(DNS_FRONT_RELAY_CONCURRENCY 1\) from 192\.0\.2\.0\/24$/)
      at(15_000)
      expect(lines[3]).toMatch(
        /refused 1 \(DNS_FRONT_RELAY_CONCURRENCY 1\) from 2001:db8:0:100::\/56$/
      )
      expect(lines).toHaveLength(4)
    } finally {
      log.close()
    }
  })

  it('writes at most maxLines network lines an interval, the rest of the flood in one line', () => {
    const { log, lines, at } = clocked({ maxLines: 3 })
    try {
      // A flood from 1,000 networks (forged sources over UDP), twice each.
      for (let round = 0; round < 2; round++)
        for (let i = 0; i < 1000; i++)
          log.note(`10.${i >> 8}.${i & 255}.1`, 'DNS_FRONT_UPSTREAM_CLIENT_RATE')
      expect(lines).toHaveLength(3)
      at(10_000)
      expect(lines).toHaveLength(7)
      // Three networks get lines of their own again; the other 997 share one; none is lost.
      expect(lines[6]).toMatch(
        /^dns front: limits refused \d+ \(DNS_FRONT_UPSTREAM_CLIENT_RATE \d+\) from 997 other client networks in the last 10 s$/
      )
      const counted = lines.map((l) => Number(/refused (\d+) /.exec(l)![1]))
      expect(counted.reduce((a, b) => a + b)).toBe(2000)
    } finally {
      log.close()
    }
  })

  it('keeps at most maxNetworks networks, counting a dropped one in the joint line', () => {
    const { log, lines, at } = clocked({ maxNetworks: 2 })
    try {
      log.note('192.0.2.1', 'DNS_FRONT_TCP_CLIENTS')
      log.note('192.0.2.2', 'DNS_FRONT_TCP_CLIENTS') // counted for its next line
      log.note('198.51.100.1', 'DNS_FRONT_TCP_CLIENTS')
      log.note('203.0.113.1', 'DNS_FRONT_TCP_CLIENTS') // drops 192.0.2.0/24 and its count
      expect(lines).toHaveLength(3)
      at(10_000)
      expect(lines.slice(3)).toEqual([
        'dns front: limits refused 1 (DNS_FRONT_TCP_CLIENTS 1) from 1 other client networks in the last 10 s',
      ])
    } finally {
      log.close()
    }
  })

  it('tells apart at most maxNetworks networks in the joint line, however many forged sources refuse', () => {
    const { log, lines, at } = clocked({ maxNetworks: 3, maxLines: 1 })
    try {
      // 1,000 networks (IPv6 /56s) refused within one interval: a line of its own for the first,
      // and for one still kept in the next interval; the rest in the joint line.
      for (let i = 0; i < 1_000; i++)
        log.note(`2001:db8:${i.toString(16)}::1`, 'DNS_FRONT_RELAY_UDP_CONCURRENCY')
      at(10_000)
      expect(lines).toHaveLength(3)
      expect(lines[2]).toBe(
        'dns front: limits refused 998 (DNS_FRONT_RELAY_UDP_CONCURRENCY 998) from more than 3 other client networks in the last 10 s'
      )
    } finally {
      log.close()
    }
  })
})
