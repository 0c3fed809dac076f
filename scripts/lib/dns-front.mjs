/**
 * @module A classic DNS front for the local stack: UDP and TCP (RFC 1035 §4.2, RFC 7766) on a local
 * port, every message passed unchanged to the DoH endpoint (`POST /dns-query`) and its answer sent
 * back, so dig, delv, kdig and drill can query `pnpm dev` the ordinary way. On Cloudflare the
 * edge plays this part. A UDP answer larger than the client can take (512 octets without EDNS,
 * else its advertised payload size) is replaced by a truncated one (TC set, question only), after
 * which clients retry over TCP.
 *
 * With `transfer` configured, the front relays AXFR and IXFR over TCP, and any query signed with
 * TSIG (a secondary checks the SOA that way before it transfers, over UDP or TCP), to the API's
 * transfer relay (`POST /client/v4/dns_transfer`, see transfer-relay.mjs) with the client's
 * address, and copies the answer to the client as it arrives; the API decides (the zone's
 * outgoing settings, ACLs, peers and their TSIG keys). Without it, transfer requests go to DoH
 * like any query (which refuses them).
 *
 * With `notify: { token }`, a NOTIFY goes to the API with its sender's address (notify-relay.mjs).
 */
import dgram from 'node:dgram'
import net from 'node:net'
import { forward } from './h2-front.mjs'
import { decodeQuery } from '../../packages/dns-wire/src/index.ts'
import { firstMessage, isRelayed, transferRelay } from './transfer-relay.mjs'
import { notifyRelay } from './notify-relay.mjs'

/** The query's EDNS UDP payload size, or 512 when it has no OPT record (or cannot be read). */
function udpLimit(query) {
  try {
    return Math.max(512, decodeQuery(query).edns?.udpPayloadSize ?? 512)
  } catch {
    return 512
  }
}

/** Header and question of `answer` with TC set and no records (RFC 2181 §9). */
function truncated(answer) {
  let at = 12
  if (answer.readUInt16BE(4) === 1) {
    while (answer[at] !== 0) at += answer[at] + 1
    at += 5
  }
  const out = Buffer.from(answer.subarray(0, at))
  out[2] |= 0x02
  out.writeUInt16BE(0, 6)
  out.writeUInt16BE(0, 8)
  out.writeUInt16BE(0, 10)
  return out
}

async function ask(target, query) {
  const res = await forward(`${target}/dns-query`, {
    method: 'POST',
    headers: {
      'content-type': 'application/dns-message',
      accept: 'application/dns-message',
      'content-length': String(query.length),
    },
    body: query,
  })
  if (res.status !== 200) throw new Error(`DoH answered HTTP ${res.status}`)
  return res.body
}

function framed(message) {
  const length = Buffer.alloc(2)
  length.writeUInt16BE(message.length)
  return Buffer.concat([length, message])
}

/** `relay(query, client, { udp })` → the answer's framed byte stream, or null for a query DoH answers. */
function transferRelayer(transfer, target) {
  if (!transfer) return () => null
  const relay = transferRelay({ api: transfer.api ?? target, token: transfer.token })
  return (query, client, { udp = false } = {}) =>
    isRelayed(query, { udp }) ? relay(Buffer.from(query), client) : null
}

/**
 * Starts the front on 127.0.0.1:`port` (0 = a free port, the same for UDP and TCP) for the stack
 * at `target` (its base URL). `transfer: { token, api }` turns on the transfer relay: `api` is
 * the API's base URL (default `target`), `token` one with Zone Transfer Relay; `notify: { token }`
 * relays NOTIFY to the API. Resolves to `{ port, close() }`.
 */
export async function startDnsFront({ target, port = 0, host = '127.0.0.1', transfer, notify }) {
  const relayTransfer = transferRelayer(transfer, target)
  const relayNotify = notifyRelay({ target, token: notify?.token })
  const tcp = net.createServer((socket) => {
    let pending = Buffer.alloc(0)
    socket.on('error', () => socket.destroy())
    socket.on('data', (chunk) => {
      pending = Buffer.concat([pending, chunk])
      while (pending.length >= 2 && pending.length >= 2 + pending.readUInt16BE(0)) {
        const query = pending.subarray(2, 2 + pending.readUInt16BE(0))
        pending = pending.subarray(2 + query.length)
        const notified = relayNotify(new Uint8Array(query), socket.remoteAddress ?? '')
        if (notified) {
          notified
            .then((answer) => {
              if (answer && !socket.destroyed) socket.write(framed(answer))
            })
            .catch(() => socket.destroy())
          continue
        }
        const relayed = relayTransfer(new Uint8Array(query), socket.remoteAddress ?? '')
        if (relayed) {
          // Answers on one connection stay in order: the next query waits for this stream.
          const previous = socket.relaying ?? Promise.resolve()
          socket.relaying = previous
            .then(() => relayed)
            .then(async (stream) => {
              for await (const chunk of stream) {
                if (socket.destroyed) break
                if (!socket.write(chunk)) await new Promise((r) => socket.once('drain', r))
              }
            })
            .catch((e) => {
              console.warn(`dns front: transfer relay failed: ${e.message}`)
              socket.destroy()
            })
          continue
        }
        ask(target, Buffer.from(query))
          .then((answer) => {
            if (!socket.destroyed) socket.write(framed(answer))
          })
          .catch(() => socket.destroy())
      }
    })
  })
  await new Promise((resolve, reject) => {
    tcp.once('error', reject)
    tcp.listen(port, host, resolve)
  })
  const bound = tcp.address().port
  const udp = dgram.createSocket('udp4')
  udp.on('message', (query, peer) => {
    const notified = relayNotify(new Uint8Array(query), peer.address)
    if (notified) {
      // Unanswered: the primary sends the NOTIFY again.
      notified.then((answer) => answer && udp.send(answer, peer.port, peer.address)).catch(() => {})
      return
    }
    const relayed = relayTransfer(new Uint8Array(query), peer.address, { udp: true })
    ;(relayed ? relayed.then(firstMessage) : ask(target, query))
      .then((answer) => {
        const reply = answer.length > udpLimit(query) ? truncated(answer) : answer
        udp.send(reply, peer.port, peer.address)
      })
      .catch(() => {}) // no answer: the client retries or gives up, as with a lost datagram
  })
  await new Promise((resolve, reject) => {
    udp.once('error', reject)
    udp.bind(bound, host, resolve)
  }).catch((e) => {
    tcp.close()
    throw e
  })
  return {
    port: bound,
    close() {
      udp.close()
      tcp.close()
    },
  }
}
