/**
 * The DNS front's log of repeatable failures (front-warnings.mjs), on its own clock: each kind's
 * first failure is logged at once, the ones after it within the interval are counted into one
 * line with the last one's text, and a kind quiet for an interval is logged at once again.
 */
import { describe, expect, it } from 'vitest'
// @ts-expect-error plain ESM module
import { warningLog } from './front-warnings.mjs'

interface WarningLog {
  warn(kind: string, text: string): void
  flush(): void
  close(): void
}

/** A warning log on a clock the test moves (`at(ms)`), its lines in `lines`. */
function clocked() {
  let t = 0
  const lines: string[] = []
  const log: WarningLog = warningLog({ log: lines.push.bind(lines), now: () => t })
  const at = (ms: number) => {
    t = ms
    log.flush()
  }
  return { log, lines, at, close: () => log.close() }
}

describe('the warning log', () => {
  it('logs a failure at once, counts the next ones into one line an interval, each kind apart', () => {
    const { log, lines, at, close } = clocked()
    log.warn('transfer relay failed', 'API answered 503')
    for (let i = 0; i < 1000; i++) log.warn('transfer relay failed', `API answered 50${i % 3}`)
    log.warn('relayed answer cut off', 'to 192.0.2.1 after 7200 s')
    expect(lines).toEqual([
      'dns front: transfer relay failed: API answered 503',
      'dns front: relayed answer cut off: to 192.0.2.1 after 7200 s',
    ])
    at(9_999)
    expect(lines).toHaveLength(2)
    at(10_000)
    expect(lines.slice(2)).toEqual([
      'dns front: transfer relay failed: 1000 more in the last 10 s, the last: API answered 500',
    ])
    // Still failing: counted again, one line at the end of the next interval.
    at(15_000)
    log.warn('transfer relay failed', 'connect ECONNREFUSED')
    at(19_999)
    expect(lines).toHaveLength(3)
    at(20_000)
    expect(lines[3]).toBe(
      'dns front: transfer relay failed: 1 more in the last 10 s, the last: connect ECONNREFUSED'
    )
    // Quiet for an interval: the next failure is logged at once, on its own.
    at(31_000)
    log.warn('transfer relay failed', 'API answered 502')
    expect(lines[4]).toBe('dns front: transfer relay failed: API answered 502')
    expect(lines).toHaveLength(5)
    close()
  })

  it('writes the counted line from its own timer when nothing else calls it', async () => {
    const lines: string[] = []
    const log: WarningLog = warningLog({ log: lines.push.bind(lines), intervalMs: 30 })
    log.warn('transfer relay failed', 'first')
    log.warn('transfer relay failed', 'second')
    log.warn('transfer relay failed', 'third')
    expect(lines).toEqual(['dns front: transfer relay failed: first'])
    await new Promise((r) => setTimeout(r, 80))
    expect(lines[1]).toBe(
      'dns front: transfer relay failed: 2 more in the last 0.03 s, the last: third'
    )
    log.close()
  })
})
