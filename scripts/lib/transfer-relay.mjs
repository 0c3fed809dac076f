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

/** Whether a query goes to the relay: AXFR/IXFR over TCP, or any query signed with TSIG. */
export function isRelayed(query, { udp = false } = {}) {
  if (!udp && isTransferRequest(query)) return true
  try {
    return splitTsig(query).tsig !== null
  } catch {
    return false
  }
}

/**
 * `relay(query, clientAddress)` → the answer's byte stream (a Node readable stream of Buffers,
 * framed as on TCP), over kept-alive HTTP connections (node:http: a Buffer per chunk as the socket
 * gives it, no web-stream layer per chunk). Rejects when the API refuses the request itself (HTTP
 * status other than 200) or cannot be reached.
 */
export function transferRelay({ api, token }) {
  const url = `${api.replace(/\/$/, '')}/client/v4/dns_transfer`
  const mod = url.startsWith('https:') ? https : http
  const agent = new mod.Agent({ keepAlive: true, scheduling: 'lifo' })
  return (query, client) =>
    new Promise((resolve, reject) => {
      const req = mod.request(url, {
        agent,
        method: 'POST',
        headers: {
          authorization: `Bearer ${token}`,
          'content-type': 'application/dns-message',
          'content-length': String(query.length),
          [CLIENT_ADDRESS_HEADER]: client,
        },
      })
      req.on('error', reject)
      req.on('response', (res) => {
        if (res.statusCode === 200) return resolve(res)
        const chunks = []
        res.on('data', (c) => chunks.push(c))
        res.on('error', reject)
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8')
          reject(new Error(`transfer relay answered HTTP ${res.statusCode}: ${text.slice(0, 300)}`))
        })
      })
      req.end(query)
    })
}

/**
 * The first message of a framed answer (for a UDP reply). The rest of the answer is then read to
 * its end in the background when `drain` is set (a query that is not a transfer: its answer is one
 * message), so the relay's kept-alive HTTP connection is free for the next query; destroying the
 * response before its end would close that connection, and a secondary's next SOA check would
 * wait for a new one. A transfer's answer is destroyed after its first message.
 */
export async function firstMessage(stream, { drain = false } = {}) {
  let bytes = Buffer.alloc(0)
  const whole = () => bytes.length >= 2 && bytes.length >= 2 + bytes.readUInt16BE(0)
  const done = new Promise((resolve) => {
    const stop = () => {
      stream.off('data', onData)
      resolve()
    }
    const onData = (chunk) => {
      bytes = bytes.length === 0 ? chunk : Buffer.concat([bytes, chunk])
      if (whole()) stop()
    }
    stream.on('data', onData)
    stream.once('end', stop)
    stream.once('error', stop)
    stream.once('close', stop)
  })
  await done
  // The rest: read to its end in the background (errors after the answer are nobody's), or dropped.
  if (drain) stream.on('error', () => {}).resume()
  else stream.destroy()
  if (!whole()) throw new Error('the transfer relay sent no whole message')
  return bytes.subarray(2, 2 + bytes.readUInt16BE(0))
}
