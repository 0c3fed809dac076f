/**
 * @module One TCP connection of the DNS front (RFC 1035 §4.2.2, RFC 7766): its queries, which may
 * come pipelined, answered one whole answer after another in the queries' order; relayed transfers
 * streamed to it; idle connections closed (RFC 7766 §6.2.3); and what is relayed held to the
 * relay limits (front-relay-limits.mjs). dns-front.mjs accepts the connections and caps how many
 * are open.
 */
import { frameTcp } from '../../packages/dns-wire/src/index.ts'
import { asksIxfr, isResponse, readQuestion, servfail } from './front-wire.mjs'

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

/** Milliseconds an idle TCP connection stays open (as BIND's tcp-idle-timeout). */
export const TCP_IDLE_MS = 30_000

/**
 * Seconds a relayed answer may take in all, from the moment the front asks the API
 * (`DNS_FRONT_RELAY_MAX_SECONDS`; BIND's max-transfer-time-out, 120 minutes).
 */
export const RELAY_MAX_SECONDS = 7200

/**
 * Answers one TCP connection may have in flight (queued or being written): past it the front
 * stops reading the connection until one is written (BIND allows 23 pipelined queries).
 */
export const MAX_PIPELINED = 32

/**
 * Bytes written to one connection and not yet taken by the kernel that the front holds before it
 * writes the next answer; past it the connection is destroyed instead. The front waits for drain
 * after each write that fills the socket, so a client that reads never comes near it (the socket's
 * high-water mark plus one answer); it is the bound on what a client that pipelines queries and
 * never reads can make the front hold, should anything write without waiting.
 */
export const MAX_TCP_BUFFERED = 256 * 1024

/**
 * Serves one TCP connection. Its queries may come pipelined; their answers are written one whole
 * answer after another, in the queries' order: a relayed transfer arrives in parts that are not
 * whole messages, so nothing else may be written between two of them. Answers from the cache or
 * DoH (`answer(query, question, client)`) are found at once, side by side, and wait only to be
 * written; a relay (`relayer.relay`) starts in its turn, so a queued one holds no HTTP answer open
 * and its time limit runs only from then. At most `MAX_PIPELINED` answers are in flight; the
 * front reads no further queries until one is written, and an answer that fills the socket is
 * written only once the socket has drained, so a client that stops reading stops its queries being
 * read and leaves at most MAX_TCP_BUFFERED written and unsent. A connection with nothing in flight
 * that sends and receives nothing for `tcpIdleMs` is closed, and so is one whose client has not read
 * an answer for as long, or that has nothing in flight and has not sent a whole query for as long
 * (bytes trickled in do not count). A relay still streaming `relayMaxSeconds` after it started is cut off:
 * its request to the API aborted, the connection closed, its slot freed and a line logged (a
 * client reading just fast enough cannot hold a relay slot for ever). Lines go to
 * `warn(kind, text)` (the front's warningLog, front-warnings.mjs, which writes at most one line
 * of a kind every 10 s).
 *
 * A relay that fails closes the connection (the client's transfer is broken); a NOTIFY the API did
 * not answer is left unanswered (the primary sends it again), the connection open. A relay starts
 * only when `limits` admit it (a transfer or signed query in its turn, a NOTIFY when it arrives).
 * Past them a NOTIFY gets no answer and any other query SERVFAIL, on a connection that stays
 * open, except an IXFR: a SERVFAIL to it sends a BIND secondary to ask AXFR at once, so the front
 * ends the connection instead, once the answers before it are written, and reads nothing more from
 * it (the secondary counts a failed attempt and tries again at its retry interval).
 */
export function serveTcp(
  socket,
  {
    relayNotify,
    notifies,
    relayer,
    limits,
    answer,
    tcpIdleMs,
    relayMaxSeconds = RELAY_MAX_SECONDS,
    warn = (kind, text) => console.warn(`dns front: ${kind}: ${text}`),
  }
) {
  let pending = Buffer.alloc(0)
  // Answers queued or being written: a connection waiting for one is not idle (writing the answer
  // is activity, which starts the idle time again), unless it is a client that has stopped
  // reading what the front writes.
  let inFlight = 0
  let turns = Promise.resolve()
  // Ended by the front: its further queries are neither read nor answered.
  const ended = () => socket.destroyed || socket.writableEnded
  /** Runs `write` once every answer queued before it is written; not once the socket is gone. */
  const inTurn = (write, failed) => {
    inFlight++
    turns = turns
      .then(() => (ended() ? undefined : write()))
      .catch(failed)
      .catch(() => {})
      .finally(() => {
        inFlight--
        if (inFlight === 0) awaitQuery()
        endIfDone()
        // Below the limit again: read on (queries already received first).
        if (inFlight < MAX_PIPELINED && !ended()) {
          takeQueries()
          if (inFlight < MAX_PIPELINED) socket.resume()
        }
      })
  }
  // The client ended its side (a half-close after its last query): once every whole query it sent
  // is answered, the front ends its side too (RFC 7766 §6.2.3: the answers are still owed).
  let clientEnded = false
  const endIfDone = () => {
    if (!clientEnded || inFlight > 0 || ended()) return
    if (pending.length >= 2 && pending.length >= 2 + pending.readUInt16BE(0)) return
    socket.end()
  }
  socket.on('end', () => {
    clientEnded = true
    endIfDone()
  })
  const client = socket.remoteAddress ?? ''
  // Checked every `tcpIdleMs` of silence, for as long as the connection lives (a connection with
  // an answer still coming is checked again later).
  socket.setTimeout(tcpIdleMs)
  socket.on('timeout', () => {
    if (inFlight === 0 || socket.writableNeedDrain) socket.destroy()
    else socket.setTimeout(tcpIdleMs)
  })
  socket.on('error', () => socket.destroy())
  // A connection with nothing in flight must bring a whole query within `tcpIdleMs` of opening or
  // of its last answer (BIND's tcp-initial-timeout): a client trickling a byte now and then, which
  // keeps the socket's own timeout from firing, does not keep the connection.
  let quiet = null
  const awaitQuery = () => {
    clearTimeout(quiet)
    quiet = setTimeout(() => {
      if (inFlight === 0) socket.destroy()
      else awaitQuery()
    }, tcpIdleMs)
  }
  awaitQuery()
  socket.once('close', () => clearTimeout(quiet))
  /**
   * Writes `bytes` in its turn and resolves once the socket can take more: until the client reads,
   * the next answer is not written, and once MAX_PIPELINED wait no further query is read. A client
   * that has not read for `tcpIdleMs`, or has more than MAX_TCP_BUFFERED unread, loses the
   * connection.
   */
  const send = async (bytes) => {
    // A socket already gone would never drain (its close has fired): nothing to wait for.
    if (ended()) return
    if (socket.writableLength > MAX_TCP_BUFFERED) return void socket.destroy()
    if (!socket.write(bytes)) await drainedWithin(socket, tcpIdleMs)
  }
  /**
   * Ends the connection without answering the query in turn (nor any after it). What the client
   * still sends is read and dropped (unread bytes would turn the close into a reset, which could
   * discard the answers written before), for at most `tcpIdleMs`: bytes it keeps sending do not
   * keep the connection.
   */
  const endUnanswered = () => {
    pending = Buffer.alloc(0)
    socket.end()
    socket.resume()
    const timer = setTimeout(() => socket.destroy(), tcpIdleMs)
    socket.once('close', () => clearTimeout(timer))
  }
  /** Starts the whole queries received, as many as the limit on answers in flight lets. */
  const takeQueries = () => {
    while (
      inFlight < MAX_PIPELINED &&
      !ended() &&
      pending.length >= 2 &&
      pending.length >= 2 + pending.readUInt16BE(0)
    ) {
      const query = Buffer.from(pending.subarray(2, 2 + pending.readUInt16BE(0)))
      pending = pending.subarray(2 + query.length)
      take(query)
    }
  }
  const take = (query) => {
    // A response is ignored: not answered, and not a query that keeps the connection open.
    if (isResponse(query)) return
    awaitQuery()
    const message = new Uint8Array(query)
    if (notifies(message)) {
      const done = limits.admit(client)
      // Past the limits: unanswered, as when the API does not answer (the primary sends it again).
      const notified = done ? relayNotify(message, client) : Promise.resolve(null)
      notified.catch(() => {}).finally(() => done?.()) // the answer is seen in its turn
      inTurn(
        async () => {
          const reply = await notified
          if (reply) await send(frameTcp(reply))
        },
        () => {}
      )
    } else if (relayer.relays(query)) {
      inTurn(
        async () => {
          const done = limits.admit(client)
          if (!done) {
            if (asksIxfr(query)) return endUnanswered()
            return send(frameTcp(servfail(query)))
          }
          const cut = new AbortController()
          const cap = setTimeout(() => {
            warn(
              'relayed answer cut off',
              `to ${client} after ${relayMaxSeconds} s (DNS_FRONT_RELAY_MAX_SECONDS)`
            )
            cut.abort(new Error(`relay still streaming after ${relayMaxSeconds} s`))
            socket.destroy()
          }, relayMaxSeconds * 1000)
          try {
            const stream = await relayer.relay(message, client, { signal: cut.signal })
            for await (const part of stream) {
              if (socket.destroyed) break
              await send(part)
            }
          } catch (e) {
            if (!cut.signal.aborted) throw e // else logged as cut off, the connection closed
          } finally {
            clearTimeout(cap)
            done()
          }
        },
        (e) => {
          warn('transfer relay failed', String(e?.message ?? e))
          socket.destroy()
        }
      )
    } else {
      const reply = Promise.resolve(answer(query, readQuestion(query), client))
      reply.catch(() => {}) // seen in its turn
      inTurn(
        async () => {
          const r = await reply
          if (r) await send(frameTcp(r))
          else socket.destroy()
        },
        () => socket.destroy()
      )
    }
  }
  socket.on('data', (chunk) => {
    if (ended()) return
    pending = Buffer.concat([pending, chunk])
    takeQueries()
    // At the limit: the client's further queries wait in its socket, not in the front's memory.
    if (inFlight >= MAX_PIPELINED) socket.pause()
  })
}
