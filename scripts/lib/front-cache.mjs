/**
 * @module The DNS front's answer cache: answers kept by (name, type, class, EDNS) for their TTL,
 * never longer than `maxTtl` seconds, in an LRU capped both in entries and in bytes, so the memory
 * it takes stays bounded whatever the traffic. A positive answer lives for the smallest TTL in its
 * answer section; a negative one (NXDOMAIN, or NOERROR with no answer) for the smaller of its
 * SOA's TTL and SOA minimum (RFC 2308 §5). Other rcodes, truncated answers and answers without a
 * usable TTL are not kept. Keys come from readQuestion (front-wire.mjs), whose EDNS part (no OPT
 * record, OPT, OPT with DO) keeps an answer with an OPT from a query without one and the reverse.
 */
import { LRUCache } from 'lru-cache'
import { decodeMessage } from '../../packages/dns-wire/src/index.ts'

/** Seconds `answer` may be kept, before the cap; 0 when it must not be kept. */
function answerTtl(answer) {
  let m
  try {
    m = decodeMessage(answer)
  } catch {
    return 0
  }
  if (m.tc || !m.qr) return 0
  if (m.rcode === 0 && m.answer.length > 0) return Math.min(...m.answer.map((rr) => rr.ttl))
  if (m.rcode !== 0 && m.rcode !== 3) return 0
  const soa = m.authority.find((rr) => rr.type === 'SOA')
  if (!soa) return 0
  const minimum = Number(soa.data.trim().split(/\s+/).at(-1))
  return Number.isFinite(minimum) ? Math.min(soa.ttl, minimum) : 0
}

/**
 * `maxEntries` and `maxBytes` bound the cache; `maxTtl` (seconds, fractions allowed) caps every
 * entry's life, 0 turns the cache off.
 */
export function answerCache({ maxEntries = 50_000, maxBytes = 32 * 1024 * 1024, maxTtl = 5 } = {}) {
  const lru = new LRUCache({
    max: maxEntries,
    maxSize: maxBytes,
    sizeCalculation: (value, key) => value.length + key.length,
    ttlResolution: 0,
  })
  return {
    /** The cached answer for `key`, or undefined. */
    get: (key) => (maxTtl > 0 ? lru.get(key) : undefined),
    /** Keeps `answer` under `key` for its TTL, capped at `maxTtl`. */
    set(key, answer) {
      if (maxTtl <= 0) return
      const ttl = Math.min(answerTtl(answer), maxTtl)
      if (ttl > 0) lru.set(key, Buffer.from(answer), { ttl: ttl * 1000 })
    },
    get entries() {
      return lru.size
    },
    get bytes() {
      return lru.calculatedSize
    },
  }
}
