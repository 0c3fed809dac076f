/**
 * @module Response-rate limiting for the DNS front's UDP answers, as BIND's RRL does against
 * reflection and amplification: a token bucket per client network (IPv4 /24, IPv6 /56) and per
 * answer, filled at `rate` responses per second (holding at most one second's worth). A response
 * over the limit is dropped, except every `slip`-th one, which goes out truncated (TC, no records
 * but an OPT when the query had one) so that a real client behind a forged flood can still retry
 * over TCP. The buckets live in a fixed-size table; when it is full the least recently used
 * bucket is evicted. The same buckets, per client network alone, bound the cache misses one network may send to the upstream.
 */
import net from 'node:net'
import { LRUCache } from 'lru-cache'

/** The client network an address is counted in: IPv4 /24, IPv6 /56. */
export function clientNetwork(address) {
  if (!address.includes(':')) return `${address.slice(0, address.lastIndexOf('.'))}.0/24`
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address)
  const v4 = mapped ? mapped[1] : address
  if (net.isIPv4(v4)) return `${v4.split('.').slice(0, 3).join('.')}.0/24`
  if (!net.isIPv6(address)) return address
  const [head, tail = ''] = address.split('::')
  const left = head ? head.split(':') : []
  const right = tail ? tail.split(':') : []
  const groups = [...left, ...Array(8 - left.length - right.length).fill('0'), ...right]
  const top = groups.slice(0, 4).map((g) => parseInt(g || '0', 16))
  top[3] &= 0xff00
  return `${top.map((g) => g.toString(16)).join(':')}::/56`
}

/**
 * The answer a response counts against: the question (readQuestion's `question`) for an answer
 * with data or NODATA, one bucket per client network for NXDOMAIN (random names share it) and one
 * per other rcode.
 */
export function answerClass(question, rcode) {
  if (rcode === 0) return question
  if (rcode === 3) return 'nxdomain'
  return `rcode${rcode}`
}

/**
 * Token buckets filled at `rate` per second, holding at most one second's worth, in a table of at
 * most `maxBuckets` (least recently used evicted). `take(key)` → the bucket, with `ok` telling
 * whether it had a token (then spent) and `over` counting the times it had none.
 */
function tokenBuckets({ rate, maxBuckets, now }) {
  const buckets = new LRUCache({ max: Math.max(1, maxBuckets) })
  return {
    take(key) {
      const t = now()
      let b = buckets.get(key)
      if (!b) {
        b = { tokens: rate, at: t, over: 0, ok: false }
        buckets.set(key, b)
      }
      b.tokens = Math.min(rate, b.tokens + ((t - b.at) / 1000) * rate)
      b.at = t
      b.ok = b.tokens >= 1
      if (b.ok) b.tokens -= 1
      else b.over += 1
      return b
    },
    get size() {
      return buckets.size
    },
  }
}

const clock = () => performance.now()

/**
 * `decide(address, answer)` → 'send', 'slip' (send a truncated answer) or 'drop'. `rate` 0 turns
 * limiting off. `now()` returns milliseconds (tests pass their own clock).
 */
export function responseLimiter({ rate = 20, slip = 2, maxBuckets = 100_000, now = clock } = {}) {
  const buckets = tokenBuckets({ rate, maxBuckets, now })
  return {
    decide(address, answer) {
      if (rate <= 0) return 'send'
      const b = buckets.take(`${clientNetwork(address)} ${answer}`)
      if (b.ok) return 'send'
      return slip > 0 && b.over % slip === 0 ? 'slip' : 'drop'
    },
    get buckets() {
      return buckets.size
    },
  }
}

/**
 * How many cache misses per second one client network may send to the upstream: `allow(address)`
 * is false past `rate` (0 = no limit), and the front answers SERVFAIL instead of asking. It keeps
 * a flood of random names from one network from taking the upstream, and the front's time, from
 * everyone else.
 */
export function missLimiter({ rate = 1000, maxBuckets = 100_000, now = clock } = {}) {
  const buckets = tokenBuckets({ rate, maxBuckets, now })
  return {
    allow: (address) => rate <= 0 || buckets.take(clientNetwork(address)).ok,
  }
}
