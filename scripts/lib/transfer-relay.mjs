/**
 * @module Where the DNS front sends zone transfers: the API's transfer relay (`POST
 * /client/v4/dns_transfer`). The front cannot read the zone's data or its transfer settings; it
 * sends the client's query as it came, with the client's address, authenticated with a token
 * holding Zone Transfer Relay, and copies the answer (DNS messages, each with its TCP length
 * prefix) to the client as it streams in.
 */
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

/**
 * `relay(query, clientAddress, { udp })` → the answer's byte stream (an async iterable of chunks,
 * framed as on TCP). Rejects when the API refuses the request itself (HTTP status other than 200).
 */
export function transferRelay({ api, token }) {
  const url = `${api.replace(/\/$/, '')}/client/v4/dns_transfer`
  return async (query, client, { udp = false } = {}) => {
    const res = await fetch(url, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${token}`,
        'content-type': 'application/dns-message',
        [CLIENT_ADDRESS_HEADER]: client,
        ...(udp ? { [TRANSPORT_HEADER]: 'udp' } : {}),
      },
      body: query,
    })
    if (res.status !== 200 || !res.body) {
      const text = await res.text().catch(() => '')
      throw new Error(`transfer relay answered HTTP ${res.status}: ${text.slice(0, 300)}`)
    }
    return res.body
  }
}

/**
 * The first message of a framed answer (for a UDP reply: the API answers a query relayed from UDP
 * with one message). The rest of the answer is then read to its end in the background, so the
 * relay's kept-alive HTTP connection is free for the next query; cancelling the body before its
 * end would close that connection, and a secondary's next SOA check would wait for a new one.
 */
export async function firstMessage(stream) {
  const reader = stream.getReader()
  let bytes = Buffer.alloc(0)
  const whole = () => bytes.length >= 2 && bytes.length >= 2 + bytes.readUInt16BE(0)
  try {
    while (!whole()) {
      const { done, value } = await reader.read()
      if (done) break
      bytes = Buffer.concat([bytes, Buffer.from(value)])
    }
  } catch (e) {
    reader.cancel().catch(() => {})
    throw e
  }
  void drainRest(reader)
  if (!whole()) throw new Error('the transfer relay sent no whole message')
  return bytes.subarray(2, 2 + bytes.readUInt16BE(0))
}

async function drainRest(reader) {
  try {
    while (!(await reader.read()).done);
  } catch {
    // The connection failed after the answer: the next query opens another.
  }
}
