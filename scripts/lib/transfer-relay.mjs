/**
 * @module Where the DNS front sends zone transfers: the API's transfer relay (`POST
 * /client/v4/dns_transfer`). The front cannot read the zone's data or its transfer settings; it
 * sends the client's query as it came, with the client's address, authenticated with a token
 * holding Zone Transfer Relay, and copies the answer (DNS messages, each with its TCP length
 * prefix) to the client as it streams in.
 */
import http from 'node:http'
import https from 'node:https'
import { isTransferRequest, splitTsig } from '../../packages/zone-transfer/src/index.ts'

/** The header the API reads the secondary's address from. */
const CLIENT_ADDRESS_HEADER = 'x-edgedns-client-address'

/** The header that tells the API a query came over UDP. */
const TRANSPORT_HEADER = 'x-edgedns-client-transport'

/**
 * Whether a query goes to the relay: AXFR/IXFR (over UDP too: the API answers an AXFR FORMERR
 * and an IXFR the single SOA, so the client asks again over TCP), or any query signed with TSIG.
 */
export function isRelayed(query) {
  if (isTransferRequest(query)) return true
  try {
    return splitTsig(query).tsig !== null
  } catch {
    return false
  }
}

/** Milliseconds the API may take to start a relayed answer, and between two of its parts. */
export const RELAY_TIMEOUT_MS = 10_000

/**
 * `relay(query, clientAddress, { udp })` → the answer's byte chunks (an async iterable of Buffers,
 * framed as on TCP); `relay.close()` closes its kept-alive connections. Rejects when the API
 * refuses the request itself (HTTP status other than 200) or has not answered within `timeoutMs`;
 * the iteration fails when the API sends nothing for `timeoutMs` while the front waits for the
 * next part (a slow client's wait is not counted), so a hung API never holds a client's
 * connection, or the front's memory, for long. Plain `node:http` (not `fetch`): a transfer is tens
 * of megabytes the front copies, and Node.js streams of Buffers cost it far less CPU than web
 * streams.
 */
export function transferRelay({ api, token, timeoutMs = RELAY_TIMEOUT_MS }) {
  const url = new URL(`${api.replace(/\/$/, '')}/client/v4/dns_transfer`)
  const mod = url.protocol === 'https:' ? https : http
  const agent = new mod.Agent({ keepAlive: true })
  const relay = (query, client, { udp = false } = {}) =>
    new Promise((resolve, reject) => {
      const req = mod.request(url, {
        agent,
        method: 'POST',
        headers: {
          authorization: `Bearer ${token}`,
          'content-type': 'application/dns-message',
          'content-length': String(query.length),
          [CLIENT_ADDRESS_HEADER]: client,
          ...(udp ? { [TRANSPORT_HEADER]: 'udp' } : {}),
        },
      })
      const timer = setTimeout(
        () => req.destroy(new Error(`the transfer relay sent nothing for ${timeoutMs} ms`)),
        timeoutMs
      )
      req.on('error', (e) => (clearTimeout(timer), reject(e)))
      req.on('response', (res) => {
        if (res.statusCode === 200) {
          clearTimeout(timer)
          resolve(chunksOf(res, timeoutMs))
          return
        }
        let text = ''
        res.setEncoding('utf8')
        res.on('data', (c) => (text += c))
        res.on('end', () => {
          clearTimeout(timer)
          reject(new Error(`transfer relay answered HTTP ${res.statusCode}: ${text.slice(0, 300)}`))
        })
      })
      req.end(query)
    })
  relay.close = () => agent.destroy()
  return relay
}

/**
 * The chunks of a relay's answer, each awaited at most `timeoutMs`; an answer left before its end
 * (the client went away) is closed, so its connection is not reused.
 */
async function* chunksOf(res, timeoutMs) {
  const chunks = res[Symbol.asyncIterator]()
  try {
    for (;;) {
      let timer
      const stalled = new Promise((_, reject) => {
        timer = setTimeout(
          () => reject(new Error(`the transfer relay sent nothing for ${timeoutMs} ms`)),
          timeoutMs
        )
      })
      let step
      try {
        step = await Promise.race([chunks.next(), stalled])
      } finally {
        clearTimeout(timer)
      }
      if (step.done) return
      yield step.value
    }
  } finally {
    if (!res.complete) res.destroy()
  }
}

/**
 * The first message of a framed answer (for a UDP reply: the API answers a query relayed from UDP
 * with one message). The rest of the answer is then read to its end in the background, so the
 * relay's kept-alive HTTP connection is free for the next query; leaving the answer before its
 * end would close that connection, and a secondary's next SOA check would wait for a new one.
 */
export async function firstMessage(answer) {
  const chunks = answer[Symbol.asyncIterator]()
  let bytes = Buffer.alloc(0)
  const whole = () => bytes.length >= 2 && bytes.length >= 2 + bytes.readUInt16BE(0)
  try {
    while (!whole()) {
      const { done, value } = await chunks.next()
      if (done) break
      bytes = Buffer.concat([bytes, Buffer.from(value)])
    }
  } catch (e) {
    chunks.return?.().catch(() => {})
    throw e
  }
  void drainRest(chunks)
  if (!whole()) throw new Error('the transfer relay sent no whole message')
  return bytes.subarray(2, 2 + bytes.readUInt16BE(0))
}

async function drainRest(chunks) {
  try {
    while (!(await chunks.next()).done);
  } catch {
    // The connection failed after the answer: the next query opens another.
  }
}
