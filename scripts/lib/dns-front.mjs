/**
 * @module The classic DNS front: UDP and TCP (RFC 1035 §4.2, RFC 7766) on a port, every query
 * answered from the front's own answer cache (front-cache.mjs) or passed unchanged to the DoH
 * endpoint (`POST /dns-query`, front-upstream.mjs: kept-alive connections, bounded concurrency,
 * SERVFAIL when the upstream fails or times out). `pnpm dev` runs it for dig, delv, kdig and
 * drill; `pnpm dns-front` runs it on hosts with port 53 in front of a deployed stack.
 *
 * A UDP answer larger than the client can take (512 octets without EDNS, else its advertised
 * payload size) is replaced by a truncated one (TC set, question only, and an OPT record when
 * the query had one), after which clients retry over TCP. UDP answers go through response-rate
 * limiting (front-rrl.mjs); TCP answers do not. A response (QR set) is never answered: dropped
 * over UDP, ignored over TCP. A message of an opcode other than QUERY that is not relayed (below)
 * is answered NOTIMP by the front itself. Each TCP connection is served by front-tcp.mjs
 * (pipelining, idle connections closed after `tcpIdleMs`, 30 s as BIND's tcp-idle-timeout); at
 * most `tcpClients` are open at once (as BIND's tcp-clients), and a connection past that is closed
 * as soon as it is accepted.
 *
 * With `transfer` configured, the front relays AXFR and IXFR, and any query signed with TSIG (a
 * secondary checks the SOA that way before it transfers), over UDP or TCP, to the API's transfer
 * relay (`POST /client/v4/dns_transfer`, see transfer-relay.mjs) with the client's address and
 * transport, and copies the answer to the client as it arrives (over UDP an AXFR is FORMERR and a
 * signed IXFR gets the single SOA, which sends the client to TCP); the API decides (the zone's
 * outgoing settings, ACLs, peers and their TSIG keys). An unsigned AXFR or IXFR over UDP is not
 * relayed (front-udp-relay.mjs): the front answers an IXFR with TC set, and the client asks again
 * over TCP, where its address is proven, and an AXFR with FORMERR. Without `transfer`, transfer requests go to DoH like any query
 * (which refuses them). With `notify: { token }`, a NOTIFY goes to the API with its sender's
 * address (notify-relay.mjs). Relayed messages are not cached. Over TCP each must pass the relay
 * limits (front-relay-limits.mjs: a rate per client network, and requests in flight per network
 * and in total), or is answered SERVFAIL (an IXFR: the connection ended; a NOTIFY: not at all)
 * without asking; over UDP each must find room under the caps on UDP relays in flight and pass
 * the sender's network's share of upstream requests (`upstream.perClient`), or gets no answer
 * (front-udp-relay.mjs). What the limits refuse is logged, a line per client network at most
 * every 10 s (front-refusals.mjs); relays that fail or are cut off, a line per kind at most every
 * 10 s (front-warnings.mjs).
 */
import net from 'node:net'
import { answerCache } from './front-cache.mjs'
import { answerClass, missLimiter, responseLimiter } from './front-rrl.mjs'
import { dohUpstream } from './front-upstream.mjs'
import {
  fitAnswer,
  isResponse,
  notImplemented,
  rcodeOf,
  readQuestion,
  servfail,
  truncated,
  udpLimit,
  withoutPadding,
} from './front-wire.mjs'
import { RELAY_TIMEOUT_MS, isRelayed, transferRelay } from './transfer-relay.mjs'
import { isNotify } from '../../packages/zone-transfer/src/index.ts'
import { notifyRelay } from './notify-relay.mjs'
import { relayLimiter } from './front-relay-limits.mjs'
import { refusalLog } from './front-refusals.mjs'
import { warningLog } from './front-warnings.mjs'
import { RELAY_MAX_SECONDS, TCP_IDLE_MS, serveTcp } from './front-tcp.mjs'
import { tcpClientShares } from './front-tcp-clients.mjs'
import { udpSockets } from './front-udp.mjs'
import { udpRelayer, unsignedTransfer } from './front-udp-relay.mjs'

export { MAX_PIPELINED, drained } from './front-tcp.mjs'

/**
 * TCP connections open at once at most (`DNS_FRONT_TCP_CLIENTS`; BIND's tcp-clients is 150): room
 * for the relays over TCP the front lets be in flight (512) beside the retries over TCP of
 * truncated UDP answers, while each connection costs only a file descriptor and a few KiB.
 */
const TCP_CLIENTS = 1000

/**
 * TCP connections one client network may have open at once (`DNS_FRONT_TCP_CLIENT_CONNECTIONS`):
 * a quarter of TCP_CLIENTS, above what a BIND secondary opens pulling 64 transfers at once with
 * its SOA checks beside them.
 */
const TCP_CLIENT_CONNECTIONS = 256

/** The settings that name each relay limit, over TCP and over UDP (for the refusal log). */
const TCP_RELAY_SETTINGS = {
  clientRate: 'DNS_FRONT_RELAY_CLIENT_RATE',
  clientConcurrency: 'DNS_FRONT_RELAY_CLIENT_CONCURRENCY',
  concurrency: 'DNS_FRONT_RELAY_CONCURRENCY',
}
const UDP_RELAY_SETTINGS = {
  clientConcurrency: 'DNS_FRONT_RELAY_UDP_CLIENT_CONCURRENCY',
  concurrency: 'DNS_FRONT_RELAY_UDP_CONCURRENCY',
}

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
 * Question types never answered from the front's cache: a secondary checks the SOA after each
 * NOTIFY (unsigned, through the front) and must see the serial the zone serves now, not one
 * cached up to the cache's TTL cap before; the upstream's own cache follows the zone's head.
 */
const UNCACHED_TYPES = new Set([6])

/**
 * `answer(query, question, client)` → the answer from the cache (at once) or a promise of the
 * upstream's; SERVFAIL when the upstream fails, or when the client's network is past its share of
 * upstream queries; NOTIMP at once for an opcode other than QUERY. `question` is
 * readQuestion(query): null, or a question of UNCACHED_TYPES, is never cached.
 */
function answerer(upstream, cache, misses) {
  /** The upstream's answer to `sent` (`query`, or `query` changed for the upstream). */
  const ask = async (query, key, sent = query) => {
    try {
      const answer = await upstream.ask(key, sent)
      if (key !== null) cache.set(key, answer)
      return fitAnswer(answer, query)
    } catch {
      return servfail(query)
    }
  }
  return (query, question, client) => {
    // Shorter than a header: not a DNS message, dropped here rather than costing a request.
    if (query.length < 12) return null
    const refused = question === null ? notImplemented(query) : null
    if (refused) return refused
    const key = question === null || UNCACHED_TYPES.has(question.type) ? null : question.key
    const cached = key === null ? undefined : cache.get(key)
    if (cached) return fitAnswer(cached, query)
    if (!misses.allow(client)) return servfail(query)
    // Plain DNS is not padded: the DoH endpoint pads the answers to queries asking for it.
    return ask(query, key, question?.padded ? withoutPadding(query, question.end) : query)
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
 * how long an idle TCP connection stays open; `tcpClients` how many may be open at once, and
 * `tcpClientConnections` how many of them one client network (front-tcp-clients.mjs);
 * `relayTimeoutMs` how long the API may take to start a relayed answer, or between its parts
 * (transfer-relay.mjs); `relayMaxSeconds` how long a relayed answer over TCP may take in all,
 * past which it is cut off (front-tcp.mjs); `relayLimits` the options of relayLimiter
 * (front-relay-limits.mjs) for relays over TCP, `udpRelayLimits` its `clientConcurrency` and
 * `concurrency` for relays over UDP (their defaults apply when not given, `pnpm dev` and the
 * benchmarks included); `refusals` the options of refusalLog (front-refusals.mjs). Resolves to `{ port, cache, close() }`.
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
  tcpClients = TCP_CLIENTS,
  tcpClientConnections = TCP_CLIENT_CONNECTIONS,
  relayTimeoutMs = RELAY_TIMEOUT_MS,
  relayMaxSeconds = RELAY_MAX_SECONDS,
  relayLimits = {},
  udpRelayLimits = {},
  refusals: refusalOptions = {},
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
  const refusals = refusalLog(refusalOptions)
  const refused = (address, setting) => refusals.note(address, setting)
  const warnings = warningLog()
  const warn = (kind, text) => warnings.warn(kind, text)
  const limits = relayLimiter({
    maxBuckets: perClient.maxBuckets,
    ...relayLimits,
    onRefuse: (address, limit) => refused(address, TCP_RELAY_SETTINGS[limit]),
  })
  const notifies = notify?.token ? isNotify : () => false
  const relayUdp = udpRelayer({
    notifies,
    relayNotify,
    relayer,
    misses,
    refused,
    limits: relayLimiter({
      clientConcurrency: udpRelayLimits.clientConcurrency ?? 128,
      concurrency: udpRelayLimits.concurrency ?? 512,
      clientRate: 0, // their rate is the network's share of upstream requests
      onRefuse: (address, limit) => refused(address, UDP_RELAY_SETTINGS[limit]),
    }),
  })
  // No Nagle: an answer written in parts (a relayed transfer) goes out at once rather than
  // waiting for the client's delayed acknowledgement of the part before.
  const shares = tcpClientShares({
    perNetwork: tcpClientConnections,
    onRefuse: (address) => refused(address, 'DNS_FRONT_TCP_CLIENT_CONNECTIONS'),
  })
  // Half-open: a client may end its side once its queries are sent and still read the answers.
  const tcp = net.createServer({ noDelay: true, allowHalfOpen: true }, (socket) => {
    if (!shares.admit(socket)) return void socket.destroy()
    serveTcp(socket, {
      relayNotify,
      notifies,
      relayer,
      limits,
      answer,
      tcpIdleMs,
      relayMaxSeconds,
      warn,
    })
  })
  // Past it Node.js closes each new connection as soon as it is accepted, and says so ('drop').
  tcp.maxConnections = tcpClients
  tcp.on('drop', (dropped) => refused(dropped?.remoteAddress, 'DNS_FRONT_TCP_CLIENTS'))
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
    send(verdict === 'send' && reply.length <= limit ? reply : truncated(reply, query))
  }
  const onMessage = (udp) => (query, peer) => {
    if (isResponse(query)) return // dropped unanswered, as a response must be
    const send = (reply) => udp.send(reply, peer.port, peer.address, () => {})
    send.peer = peer.address
    // An unsigned transfer over UDP is answered here, before it reaches the API (front-udp-relay.mjs).
    const tcpOnly = unsignedTransfer(query, relayer.relays)
    if (tcpOnly) return void deliver(send, query, null, tcpOnly)
    // A message relayed to the API (NOTIFY, transfer request, signed query) is answered by it,
    // not through RRL; past the limits on UDP relays, not at all.
    const relayed = relayUdp(query, peer.address)
    if (relayed) return void relayed.then((reply) => reply && send(reply)).catch(() => {})
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
      refusals.close()
      warnings.close()
    },
  }
}
