/**
 * @module Talking to a primary over TCP (`connect()` from `cloudflare:sockets`): the SOA check
 * and the transfer itself, each one connection, each TSIG-signed when the primary has a key. A
 * connection ends with an error when the primary sends nothing for `idleMs`, or when the whole
 * exchange takes longer than `totalMs`: a large zone streams for as long as its data keeps coming
 * (within the cap), a stalled primary is given up quickly. The transfer's records go to a sink as
 * they arrive.
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
import { socketHostname } from '../zones/tcp-exchange.ts'
import type { Primary } from './incoming-config.ts'

export type Connect = (address: SocketAddress, options?: SocketOptions) => Socket

/** Time limits of one connection: silence from the primary, and the whole exchange. */
export interface ConnectionLimits {
  idleMs: number
  totalMs: number
}

/** The SOA check answers within this. */
const SOA_LIMITS: ConnectionLimits = { idleMs: 10_000, totalMs: 10_000 }
/**
 * A transfer: the primary may pause between messages (it reads its zone as it sends) but not stop;
 * the cap stays under the 15 minutes of wall time a Durable Object alarm may run.
 */
const TRANSFER_LIMITS: ConnectionLimits = { idleMs: 30_000, totalMs: 10 * 60_000 }

const nowSeconds = () => Math.floor(Date.now() / 1000)
const randomId = () => crypto.getRandomValues(new Uint16Array(1))[0]!

/**
 * The messages the primary sends; `onData` is told of every chunk received. Once `signal` aborts
 * (the connection's time is up), the read in progress is cancelled and no message is handed on.
 */
async function* messagesOf(
  socket: Socket,
  onData: () => void,
  signal: AbortSignal
): AsyncGenerator<Uint8Array> {
  const reader = socket.readable.getReader()
  const cancel = () => void reader.cancel(signal.reason).catch(() => {})
  signal.addEventListener('abort', cancel)
  const splitter = new TcpMessageSplitter()
  try {
    for (;;) {
      const { value, done } = await reader.read()
      signal.throwIfAborted()
      if (done) return
      onData()
      for (const message of splitter.push(value as Uint8Array)) {
        signal.throwIfAborted()
        yield message
      }
    }
  } finally {
    signal.removeEventListener('abort', cancel)
    reader.releaseLock()
  }
}

/** Rejects when `touch` is not called for `idleMs`, or `totalMs` after it was made. */
function watchdog(limits: ConnectionLimits) {
  let idle: ReturnType<typeof setTimeout> | undefined
  let total: ReturnType<typeof setTimeout> | undefined
  let touch = () => {}
  const expired = new Promise<never>((_, reject) => {
    total = setTimeout(
      () => reject(new Error(`not complete within ${limits.totalMs} ms`)),
      limits.totalMs
    )
    touch = () => {
      clearTimeout(idle)
      idle = setTimeout(
        () => reject(new Error(`nothing received for ${limits.idleMs} ms`)),
        limits.idleMs
      )
    }
  })
  touch()
  const stop = () => {
    clearTimeout(idle)
    clearTimeout(total)
  }
  return { expired, touch, stop }
}

/**
 * Runs `run` on a connection to the primary within `limits`. When they are passed, `run`'s signal
 * aborts and the failure is reported only once `run` has settled: a transfer's sink is not in the
 * middle of staging a record, nor is any staged after, when the caller discards what was staged.
 */
async function withSocket<T>(
  primary: Primary,
  limits: ConnectionLimits,
  connectTo: Connect,
  run: (socket: Socket, touch: () => void, signal: AbortSignal) => Promise<T>
): Promise<T> {
  const socket = connectTo(
    { hostname: socketHostname(primary.ip), port: primary.port },
    { allowHalfOpen: false }
  )
  const dog = watchdog(limits)
  const abort = new AbortController()
  const running = run(socket, dog.touch, abort.signal)
  try {
    return await Promise.race([running, dog.expired])
  } catch (e) {
    abort.abort(e)
    socket.close().catch(() => {})
    await running.catch(() => {})
    throw new Error(`${primary.ip} port ${primary.port}: ${(e as Error).message ?? e}`, {
      cause: e,
    })
  } finally {
    dog.stop()
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
  return withSocket(primary, SOA_LIMITS, connectTo, async (socket, touch, signal) => {
    const id = randomId()
    const req = await transferRequest({
      zone,
      kind: 'SOA',
      id,
      now: nowSeconds(),
      ...(primary.key ? { key: primary.key } : {}),
    })
    await send(socket, req.message)
    for await (const answer of messagesOf(socket, touch, signal)) {
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
 * go to `sink` as they arrive. `limits`: the connection's time limits (tests shorten them).
 */
export function pullZone(
  primary: Primary,
  zone: string,
  fromSoa: { rdata: string; serial: number } | null,
  sink: RecordSink,
  connectTo: Connect = connect,
  limits: ConnectionLimits = TRANSFER_LIMITS
): Promise<TransferOutcome> {
  return withSocket(primary, limits, connectTo, async (socket, touch, signal) => {
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
    return readTransfer(messagesOf(socket, touch, signal), {
      request: { id, zone, kind, mac: req.mac },
      ...(primary.key ? { key: primary.key } : {}),
      ...(fromSoa ? { serial: fromSoa.serial } : {}),
      now: nowSeconds,
      sink: (op, rr) => {
        signal.throwIfAborted()
        return sink(op, rr)
      },
    })
  })
}
