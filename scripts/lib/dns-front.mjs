/**
 * @module The classic DNS front: UDP and TCP (RFC 1035 §4.2, RFC 7766) on a port, every query
 * answered from the front's own answer cache (front-cache.mjs) or passed unchanged to the DoH
 * endpoint (`POST /dns-query`, front-upstream.mjs: kept-alive connections, bounded concurrency,
 * SERVFAIL when the upstream fails or times out). `pnpm dev` runs it for dig, delv, kdig and
 * drill; `pnpm dns-front` runs it on hosts with port 53 in front of a deployed stack.
 *
 * A UDP answer larger than the client can take (512 octets without EDNS, else its advertised
 * payload size) is replaced by a truncated one (TC set, question only), after which clients retry
 * over TCP. UDP answers go through response-rate limiting (front-rrl.mjs); TCP answers do not.
 * Each TCP connection is served by front-tcp.mjs (pipelining, idle connections closed after
 * `tcpIdleMs`, 30 s as BIND's tcp-idle-timeout).
 *
 * With `transfer` configured, the front relays AXFR and IXFR, and any query signed with TSIG (a
 * secondary checks the SOA that way before it transfers), over UDP or TCP, to the API's transfer
 * relay (`POST /client/v4/dns_transfer`, see transfer-relay.mjs) with the client's address and
 * transport, and copies the answer to the client as it arrives (over UDP an AXFR is FORMERR and an
 * IXFR gets the single SOA, which sends the client to TCP); the API decides (the zone's
 * outgoing settings, ACLs, peers and their TSIG keys). Without it, transfer requests go to DoH
 * like any query (which refuses them). With `notify: { token }`, a NOTIFY goes to the API with its
 * sender's address (notify-relay.mjs). Relayed messages are not cached; over UDP each counts
 * against the sender's network's share of upstream requests (`upstream.perClient`); over TCP each
 * must pass the relay limits (front-relay-limits.mjs: a rate per client network, and requests in
 * flight per network and in total), or is answered SERVFAIL (an IXFR: the connection ended; a
 * NOTIFY: not at all) without asking.
 */
import net from 'node:net'
import { answerCache } from './front-cache.mjs'
import { answerClass, missLimiter, responseLimiter } from './front-rrl.mjs'
import { dohUpstream } from './front-upstream.mjs'
import { fitAnswer, rcodeOf, readQuestion, servfail, truncated, udpLimit } from './front-wire.mjs'
import { RELAY_TIMEOUT_MS, firstMessage, isRelayed, transferRelay } from './transfer-relay.mjs'
import { isNotify } from '../../packages/zone-transfer/src/index.ts'
import { notifyRelay } from './notify-relay.mjs'
import { relayLimiter } from './front-relay-limits.mjs'
import { TCP_IDLE_MS, serveTcp } from './front-tcp.mjs'
import { udpSockets } from './front-udp.mjs'

export { MAX_PIPELINED, drained } from './front-tcp.mjs'

/**
 * `relays(query)`: whether a query goes to the transfer relay (never without `transfer`);
 * `relay(query, client, { udp })` → a promise of the answer's framed byte stream.
 */
function transferRelayer(transfer, target, timeoutMs) {
  if (!transfer) return { relays: () => false, relay: null }
  const relay = transferRelay({ api: transfer.api ?? target, token: transfer.token, timeoutMs })
  return {
    relays: isRelayed,
    relay: (query, client, options) => relay(Buffer.from(query), client, options),
  }
}

/**
 * `answer(query, question, client)` → the answer from the cache (at once) or a promise of the
 * upstream's; SERVFAIL when the upstream fails, or when the client's network is past its share of
 * upstream queries. `question` is readQuestion(query): null is never cached.
 */
function answerer(upstream, cache, misses) {
  const ask = async (query, key) => {
    try {
      const answer = await upstream.ask(key, query)
      if (key !== null) cache.set(key, answer)
      return fitAnswer(answer, query)
    } catch {
      return servfail(query)
    }
  }
  return (query, question, client) => {
    const key = question?.key ?? null
    const cached = key === null ? undefined : cache.get(key)
    if (cached) return fitAnswer(cached, query)
    if (!misses.allow(client)) return servfail(query)
    return ask(query, key)
  }
}

/**
 * Starts the front on `host`:`port` (0 = a free port, the same for UDP and TCP) for the stack
 * whose DoH endpoint is at `target` (its base URL). `transfer: { token, api }` turns on the
 * transfer relay: `api` is the API's base URL (default `target`), `token` one with Zone Transfer
 * Relay; `notify: { token, api }` relays NOTIFY to the API. `cache`, `rrl` and `upstream` take
 * the options of answerCache, responseLimiter and dohUpstream; without `cache` nothing is cached
 * and without `rrl` nothing is limited, as `pnpm dev` wants (scripts/dns-front.mjs passes the
 * deployed defaults from front-settings.mjs) (`upstream.perClient` those of
 * missLimiter); `udpSockets` is how many UDP sockets share the port (front-udp.mjs); `tcpIdleMs`
 * how long an idle TCP connection stays open; `relayTimeoutMs` how long the API may take to start
 * a relayed answer, or between its parts (transfer-relay.mjs); `relayLimits` the options of
 * relayLimiter (front-relay-limits.mjs; its defaults apply when not given, `pnpm dev` and the
 * benchmarks included). Resolves to `{ port, cache, close() }`.
 */
export async function startDnsFront({
  target,
  port = 0,
  host = '127.0.0.1',
  transfer,
  notify,
  cache: cacheOptions = { maxTtl: 0 },
  rrl: rrlOptions = { rate: 0 },
  upstream: upstreamOptions = {},
  udpSockets: udpSocketCount = 8,
  tcpIdleMs = TCP_IDLE_MS,
  relayTimeoutMs = RELAY_TIMEOUT_MS,
  relayLimits = {},
}) {
  const relayer = transferRelayer(transfer, target, relayTimeoutMs)
  const relayNotify = notifyRelay({
    target: notify?.api ?? target,
    token: notify?.token,
    timeoutMs: relayTimeoutMs,
  })
  const { perClient = {}, ...upstreamSettings } = upstreamOptions
  const upstream = dohUpstream({ target, ...upstreamSettings })
  const cache = answerCache(cacheOptions)
  const misses = missLimiter(perClient)
  const answer = answerer(upstream, cache, misses)
  const limits = relayLimiter({ maxBuckets: perClient.maxBuckets, ...relayLimits })
  const notifies = notify?.token ? isNotify : () => false
  // No Nagle: an answer written in parts (a relayed transfer) goes out at once rather than
  // waiting for the client's delayed acknowledgement of the part before.
  const tcp = net.createServer({ noDelay: true }, (socket) =>
    serveTcp(socket, { relayNotify, notifies, relayer, limits, answer, tcpIdleMs })
  )
  await new Promise((resolve, reject) => {
    tcp.once('error', reject)
    tcp.listen(port, host, resolve)
  })
  const bound = tcp.address().port
  const limiter = responseLimiter(rrlOptions)
  /** Sends a UDP reply through RRL, truncated when the client cannot take it whole. */
  const deliver = (send, query, question, reply) => {
    if (!reply) return
    const verdict = limiter.decide(
      send.peer,
      answerClass(question?.question ?? 'other', rcodeOf(reply))
    )
    if (verdict === 'drop') return
    const limit = question?.udpLimit ?? udpLimit(query)
    send(verdict === 'send' && reply.length <= limit ? reply : truncated(reply))
  }
  const onMessage = (udp) => (query, peer) => {
    const send = (reply) => udp.send(reply, peer.port, peer.address, () => {})
    send.peer = peer.address
    // A message relayed to the API over UDP (where the sender's address is not proven) counts
    // against its network's share of upstream requests, as a cache miss does; past it nothing is
    // sent and the sender asks again, as after a lost datagram.
    const message = new Uint8Array(query)
    const toRelay = relayer.relays(message)
    const relayable = notifies(message) || toRelay
    if (relayable && !misses.allow(peer.address)) return
    const notified = relayNotify(message, peer.address)
    if (notified) {
      // Unanswered: the primary sends the NOTIFY again.
      notified.then((reply) => reply && send(reply)).catch(() => {})
      return
    }
    if (toRelay) {
      relayer
        .relay(message, peer.address, { udp: true })
        .then(firstMessage)
        .then((reply) => send(reply.length > udpLimit(query) ? truncated(reply) : reply))
        .catch(() => {}) // no answer: the client retries or gives up, as with a lost datagram
      return
    }
    const question = readQuestion(query)
    const reply = answer(query, question, peer.address)
    if (Buffer.isBuffer(reply) || reply === null) deliver(send, query, question, reply)
    else reply.then((r) => deliver(send, query, question, r)).catch(() => {})
  }
  const sockets = await udpSockets({ host, port: bound, count: udpSocketCount }).catch((e) => {
    tcp.close()
    upstream.close()
    throw e
  })
  for (const udp of sockets) udp.on('message', onMessage(udp))
  return {
    port: bound,
    cache,
    close() {
      for (const udp of sockets) udp.close()
      tcp.close()
      upstream.close()
    },
  }
}
