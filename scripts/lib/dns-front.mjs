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
 * A TCP connection with nothing in flight that sends and receives nothing for `tcpIdleMs` (30 s,
 * as BIND's tcp-idle-timeout) is closed (RFC 7766 §6.2.3), so idle clients cannot hold the
 * front's file descriptors.
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
 * flight per network and in total), or is answered SERVFAIL (a NOTIFY: not at all) without asking.
 */
import net from 'node:net'
import { frameTcp } from '../../packages/dns-wire/src/index.ts'
import { answerCache } from './front-cache.mjs'
import { answerClass, missLimiter, responseLimiter } from './front-rrl.mjs'
import { dohUpstream } from './front-upstream.mjs'
import { fitAnswer, rcodeOf, readQuestion, servfail, truncated, udpLimit } from './front-wire.mjs'
import { RELAY_TIMEOUT_MS, firstMessage, isRelayed, transferRelay } from './transfer-relay.mjs'
import { isNotify } from '../../packages/zone-transfer/src/index.ts'
import { notifyRelay } from './notify-relay.mjs'
import { relayLimiter } from './front-relay-limits.mjs'
import { udpSockets } from './front-udp.mjs'

/**
 * Resolves once `socket` can take more (drain) or is gone (close), removing both listeners: a
 * transfer waits for drain hundreds of times on one connection.
 */
export function drained(socket) {
  return new Promise((resolve) => {
    const done = () => {
      socket.off('drain', done)
      socket.off('close', done)
      resolve()
    }
    socket.on('drain', done)
    socket.on('close', done)
  })
}

/**
 * Resolves once `socket` drains or closes; destroys it when it has not drained within `ms` (its
 * client has stopped reading: bytes it sends meanwhile do not keep a relayed answer's slot).
 */
function drainedWithin(socket, ms) {
  const timer = setTimeout(() => socket.destroy(), ms)
  return drained(socket).finally(() => clearTimeout(timer))
}

/** Milliseconds an idle TCP connection stays open (see the module comment). */
const TCP_IDLE_MS = 30_000

/**
 * Answers one TCP connection may have in flight (queued or being written): past it the front
 * stops reading the connection until one is written (BIND allows 23 pipelined queries).
 */
export const MAX_PIPELINED = 32

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
 * Serves one TCP connection. Its queries may come pipelined; their answers are written one whole
 * answer after another, in the queries' order: a relayed transfer arrives in parts that are not
 * whole messages, so nothing else may be written between two of them. Answers from the cache or
 * DoH are found at once, side by side, and wait only to be written; a relay starts in its turn,
 * so a queued one holds no HTTP answer open and its time limit runs only from then. At most
 * `MAX_PIPELINED` answers are in flight; the front reads no further queries until one is written.
 * A relay that fails closes the connection (the client's transfer is broken); a NOTIFY the API did
 * not answer is left unanswered (the primary sends it again), the connection open. A relay starts
 * only when `limits` admit it (a transfer or signed query in its turn, a NOTIFY when it arrives):
 * past them a query is answered SERVFAIL and a NOTIFY not at all, and the connection stays open.
 */
function serveTcp(socket, { relayNotify, notifies, relayer, limits, answer, tcpIdleMs }) {
  let pending = Buffer.alloc(0)
  // Answers queued or being written: a connection waiting for one is not idle (writing the answer
  // is activity, which starts the idle time again), unless it is a client that has stopped
  // reading what the front writes.
  let inFlight = 0
  let turns = Promise.resolve()
  /** Runs `write` once every answer queued before it is written; not once the socket is gone. */
  const inTurn = (write, failed) => {
    inFlight++
    turns = turns
      .then(() => (socket.destroyed ? undefined : write()))
      .catch(failed)
      .catch(() => {})
      .finally(() => {
        inFlight--
        // Below the limit again: read on (queries already received first).
        if (inFlight < MAX_PIPELINED && !socket.destroyed) {
          takeQueries()
          if (inFlight < MAX_PIPELINED) socket.resume()
        }
      })
  }
  const client = socket.remoteAddress ?? ''
  // Checked every `tcpIdleMs` of silence, for as long as the connection lives (a connection with
  // an answer still coming is checked again later).
  socket.setTimeout(tcpIdleMs)
  socket.on('timeout', () => {
    if (inFlight === 0 || socket.writableNeedDrain) socket.destroy()
    else socket.setTimeout(tcpIdleMs)
  })
  socket.on('error', () => socket.destroy())
  /** Starts the whole queries received, as many as the limit on answers in flight lets. */
  const takeQueries = () => {
    while (
      inFlight < MAX_PIPELINED &&
      pending.length >= 2 &&
      pending.length >= 2 + pending.readUInt16BE(0)
    ) {
      const query = Buffer.from(pending.subarray(2, 2 + pending.readUInt16BE(0)))
      pending = pending.subarray(2 + query.length)
      take(query)
    }
  }
  const take = (query) => {
    const message = new Uint8Array(query)
    if (notifies(message)) {
      const done = limits.admit(client)
      // Past the limits: unanswered, as when the API does not answer (the primary sends it again).
      const notified = done ? relayNotify(message, client) : Promise.resolve(null)
      notified.catch(() => {}).finally(() => done?.()) // the answer is seen in its turn
      inTurn(
        async () => {
          const reply = await notified
          if (reply) socket.write(frameTcp(reply))
        },
        () => {}
      )
    } else if (relayer.relays(query)) {
      inTurn(
        async () => {
          const done = limits.admit(client)
          if (!done) return void socket.write(frameTcp(servfail(query)))
          try {
            const stream = await relayer.relay(message, client)
            for await (const part of stream) {
              if (socket.destroyed) break
              if (!socket.write(part)) await drainedWithin(socket, tcpIdleMs)
            }
          } finally {
            done()
          }
        },
        (e) => {
          console.warn(`dns front: transfer relay failed: ${e?.message ?? e}`)
          socket.destroy()
        }
      )
    } else {
      const reply = Promise.resolve(answer(query, readQuestion(query), client))
      reply.catch(() => {}) // seen in its turn
      inTurn(
        async () => {
          const r = await reply
          if (r) socket.write(frameTcp(r))
          else socket.destroy()
        },
        () => socket.destroy()
      )
    }
  }
  socket.on('data', (chunk) => {
    pending = Buffer.concat([pending, chunk])
    takeQueries()
    // At the limit: the client's further queries wait in its socket, not in the front's memory.
    if (inFlight >= MAX_PIPELINED) socket.pause()
  })
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
