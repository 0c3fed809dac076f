/**
 * @module Talking to a primary over TCP (`connect()` from `cloudflare:sockets`): the SOA check
 * and the transfer itself, each one connection, each TSIG-signed when the primary has a key, each
 * within a time limit. The transfer's records go to a sink as they arrive.
 */
import { connect } from 'cloudflare:sockets'
import {
  TsigStreamVerifier,
  readTransfer,
  soaOfAnswer,
  transferRequest,
  type RecordSink,
  type TransferOutcome,
} from '@edgedns/zone-transfer'
import { frameTcp, TcpMessageSplitter, type MessageRR } from '@edgedns/dns-wire'
import type { Primary } from './incoming-config.ts'

export type Connect = (address: SocketAddress, options?: SocketOptions) => Socket

/** The SOA check answers within this. */
const SOA_TIMEOUT_MS = 10_000
/** A whole transfer completes within this. */
const TRANSFER_TIMEOUT_MS = 120_000

const nowSeconds = () => Math.floor(Date.now() / 1000)
const randomId = () => crypto.getRandomValues(new Uint16Array(1))[0]!

async function* messagesOf(socket: Socket): AsyncGenerator<Uint8Array> {
  const reader = socket.readable.getReader()
  const splitter = new TcpMessageSplitter()
  try {
    for (;;) {
      const { value, done } = await reader.read()
      if (done) return
      yield* splitter.push(value as Uint8Array)
    }
  } finally {
    reader.releaseLock()
  }
}

async function withSocket<T>(
  primary: Primary,
  timeoutMs: number,
  connectTo: Connect,
  run: (socket: Socket) => Promise<T>
): Promise<T> {
  const socket = connectTo({ hostname: primary.ip, port: primary.port }, { allowHalfOpen: false })
  let timer: ReturnType<typeof setTimeout> | undefined
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${timeoutMs} ms`)), timeoutMs)
  })
  try {
    return await Promise.race([run(socket), timeout])
  } catch (e) {
    throw new Error(`${primary.ip} port ${primary.port}: ${(e as Error).message ?? e}`, {
      cause: e,
    })
  } finally {
    clearTimeout(timer)
    socket.close().catch(() => {})
  }
}

async function send(socket: Socket, message: Uint8Array): Promise<void> {
  const writer = socket.writable.getWriter()
  await writer.write(frameTcp(message))
  writer.releaseLock()
}

/** The primary's SOA for `zone` (its answer verified when the primary has a key). */
export function primarySoa(
  primary: Primary,
  zone: string,
  connectTo: Connect = connect
): Promise<MessageRR> {
  return withSocket(primary, SOA_TIMEOUT_MS, connectTo, async (socket) => {
    const id = randomId()
    const req = await transferRequest({
      zone,
      kind: 'SOA',
      id,
      now: nowSeconds(),
      ...(primary.key ? { key: primary.key } : {}),
    })
    await send(socket, req.message)
    for await (const answer of messagesOf(socket)) {
      const body = primary.key
        ? await new TsigStreamVerifier(primary.key, req.mac, nowSeconds).next(answer)
        : answer
      return soaOfAnswer(body, id, zone)
    }
    throw new Error('the connection closed before the SOA answer')
  })
}

/**
 * Pulls the zone: IXFR from `fromSoa` (the SOA rdata we hold) when given, else AXFR; the records
 * go to `sink` as they arrive.
 */
export function pullZone(
  primary: Primary,
  zone: string,
  fromSoa: { rdata: string; serial: number } | null,
  sink: RecordSink,
  connectTo: Connect = connect
): Promise<TransferOutcome> {
  return withSocket(primary, TRANSFER_TIMEOUT_MS, connectTo, async (socket) => {
    const id = randomId()
    const kind = fromSoa ? 'IXFR' : 'AXFR'
    const req = await transferRequest({
      zone,
      kind,
      id,
      now: nowSeconds(),
      ...(fromSoa ? { soa: fromSoa.rdata } : {}),
      ...(primary.key ? { key: primary.key } : {}),
    })
    await send(socket, req.message)
    return readTransfer(messagesOf(socket), {
      request: { id, zone, kind, mac: req.mac },
      ...(primary.key ? { key: primary.key } : {}),
      ...(fromSoa ? { serial: fromSoa.serial } : {}),
      now: nowSeconds,
      sink,
    })
  })
}
