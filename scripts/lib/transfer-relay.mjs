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

/** Milliseconds the API may take to start a relayed answer, and between two of its parts. */
export const RELAY_TIMEOUT_MS = 10_000

/**
 * `relay(query, clientAddress, { udp, signal })` → the answer's byte stream (a ReadableStream of
 * chunks, framed as on TCP). Rejects when the API refuses the request itself (HTTP status other
 * than 200) or has not answered within `timeoutMs`; the stream fails when the API sends nothing
 * for `timeoutMs` while the front waits for the next part (a slow client's wait is not counted), so
 * a hung API never holds a client's connection, or the front's memory, for long. When `signal`
 * aborts, the request to the API is aborted with its reason (the cap on a relay's whole time).
 */
export function transferRelay({ api, token, timeoutMs = RELAY_TIMEOUT_MS }) {
  const url = `${api.replace(/\/$/, '')}/client/v4/dns_transfer`
  return async (query, client, { udp = false, signal } = {}) => {
    const request = new AbortController()
    if (signal?.aborted) request.abort(signal.reason)
    else signal?.addEventListener('abort', () => request.abort(signal.reason), { once: true })
    const stalled = () =>
      request.abort(new Error(`the transfer relay sent nothing for ${timeoutMs} ms`))
    let timer = setTimeout(stalled, timeoutMs)
    try {
      const res = await fetch(url, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${token}`,
          'content-type': 'application/dns-message',
          [CLIENT_ADDRESS_HEADER]: client,
          ...(udp ? { [TRANSPORT_HEADER]: 'udp' } : {}),
        },
        body: query,
        signal: request.signal,
      })
      if (res.status !== 200 || !res.body) {
        const text = await res.text().catch(() => '')
        throw new Error(`transfer relay answered HTTP ${res.status}: ${text.slice(0, 300)}`)
      }
      clearTimeout(timer)
      const reader = res.body.getReader()
      // No part is read ahead: the time runs only while the front waits for the API.
      return new ReadableStream(
        {
          async pull(controller) {
            timer = setTimeout(stalled, timeoutMs)
            try {
              const { done, value } = await reader.read()
              if (done) controller.close()
              else controller.enqueue(value)
            } catch (e) {
              controller.error(request.signal.aborted ? request.signal.reason : e)
            } finally {
              clearTimeout(timer)
            }
          },
          cancel: (reason) => reader.cancel(reason),
        },
        { highWaterMark: 0 }
      )
    } catch (e) {
      clearTimeout(timer)
      throw request.signal.aborted ? request.signal.reason : e
    }
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
