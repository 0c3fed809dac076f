/**
 * @module TSIG (RFC 8945) with hmac-sha256 and hmac-sha512 over WebCrypto: signing and verifying
 * single messages (requests, responses, error responses), and the MAC and time checks the
 * streams of AXFR/IXFR share (tsig-stream.ts).
 */
import { CLASSES, TYPE_CODES } from '@edgedns/dns-facts'
import { ByteWriter, concatBytes, DnsFormatError, parseName, writeName } from '@edgedns/dns-wire'
import { canonical, cryptoKey, HASHES, type TsigAlgorithm, type TsigKey } from './tsig-key.ts'
import { splitTsig, type TsigRecord } from './tsig-record.ts'

/** TSIG error codes (RFC 8945 §3; carried in the TSIG record, the header says NOTAUTH). */
export const TSIG_ERRORS = Object.freeze({ BADSIG: 16, BADKEY: 17, BADTIME: 18, BADTRUNC: 22 })
export type TsigErrorName = keyof typeof TSIG_ERRORS
const NOTAUTH = 9
const FORMERR = 1

/** Fudge (seconds of clock skew allowed) when the signer does not choose one. */
export const DEFAULT_FUDGE = 300
/** Most messages of a stream that may arrive unsigned between two signed ones (RFC 8945 §5.3.1). */
export const MAX_UNSIGNED_RUN = 99

/**
 * A TSIG check that failed: `code` goes in the TSIG record of the reply, `rcode` in its header
 * (NOTAUTH, or FORMERR for a MAC of a length no signer may send).
 */
export class TsigError extends Error {
  override name = 'TsigError'
  readonly code: TsigErrorName
  readonly rcode: number

  constructor(code: TsigErrorName, message: string, rcode = NOTAUTH) {
    super(`${code}: ${message}`)
    this.code = code
    this.rcode = rcode
  }
}

function nameWire(name: string): Uint8Array {
  const w = new ByteWriter()
  writeName(w, parseName(canonical(name)))
  return w.finish()
}

function u48(w: ByteWriter, v: number): void {
  w.u16(Math.floor(v / 0x100000000) & 0xffff)
  w.u32(v % 0x100000000)
}

interface Variables {
  key: TsigKey
  timeSigned: number
  fudge: number
  error: number
  other: Uint8Array
}

/** TSIG variables (RFC 8945 §4.3.3), or only the timers for later messages of a stream. */
function variables(v: Variables, timersOnly: boolean): Uint8Array {
  const w = new ByteWriter()
  if (!timersOnly) {
    w.bytes(nameWire(v.key.name))
    w.u16(CLASSES.ANY)
    w.u32(0)
    w.bytes(nameWire(v.key.algorithm))
  }
  u48(w, v.timeSigned)
  w.u16(v.fudge)
  if (!timersOnly) {
    w.u16(v.error)
    w.u16(v.other.length)
    w.bytes(v.other)
  }
  return w.finish()
}

function lengthPrefixed(mac: Uint8Array): Uint8Array {
  const out = new Uint8Array(mac.length + 2)
  out[0] = mac.length >> 8
  out[1] = mac.length & 0xff
  out.set(mac, 2)
  return out
}

/** What the MAC covers: [prior or request MAC], the message(s), the variables or the timers. */
function digestInput(
  previousMac: Uint8Array | undefined,
  messages: Uint8Array[],
  v: Variables,
  timersOnly: boolean
): Uint8Array {
  const parts = previousMac ? [lengthPrefixed(previousMac)] : []
  return concatBytes([...parts, ...messages, variables(v, timersOnly)])
}

/** Appends a TSIG record to `message` (which has none) and bumps ARCOUNT. */
function appendTsig(message: Uint8Array, v: Variables, mac: Uint8Array): Uint8Array {
  const w = new ByteWriter()
  w.bytes(message)
  w.bytes(nameWire(v.key.name))
  w.u16(TYPE_CODES.TSIG)
  w.u16(CLASSES.ANY)
  w.u32(0)
  const lengthAt = w.length
  w.u16(0)
  w.bytes(nameWire(v.key.algorithm))
  u48(w, v.timeSigned)
  w.u16(v.fudge)
  w.u16(mac.length)
  w.bytes(mac)
  w.u16((message[0]! << 8) | message[1]!)
  w.u16(v.error)
  w.u16(v.other.length)
  w.bytes(v.other)
  w.setU16(lengthAt, w.length - lengthAt - 2)
  w.setU16(10, ((message[10]! << 8) | message[11]!) + 1)
  return w.finish()
}

/** Octets a TSIG record with `key` adds to a message (room to keep free when packing). */
export function tsigSize(key: TsigKey, otherLength = 6): number {
  return (
    nameWire(key.name).length +
    10 +
    nameWire(key.algorithm).length +
    16 +
    HASHES[key.algorithm].length +
    otherLength
  )
}

export interface SignOptions {
  /** Seconds since the epoch (48 bits). */
  time: number
  fudge?: number
  /** For a response: the request's MAC. For a later message of a stream: the prior MAC. */
  previousMac?: Uint8Array
  /** Later messages of a stream cover only the timers (RFC 8945 §5.3.1). */
  timersOnly?: boolean
  error?: number
  other?: Uint8Array
  /** Unsigned messages sent since the prior MAC, which this MAC covers too (streams only). */
  preceding?: readonly Uint8Array[]
}

export interface Signed {
  message: Uint8Array
  mac: Uint8Array
}

/** Signs a message that carries no TSIG record yet. */
export async function signMessage(
  message: Uint8Array,
  key: TsigKey,
  options: SignOptions
): Promise<Signed> {
  const v: Variables = {
    key,
    timeSigned: options.time,
    fudge: options.fudge ?? DEFAULT_FUDGE,
    error: options.error ?? 0,
    other: options.other ?? new Uint8Array(0),
  }
  const messages = [...(options.preceding ?? []), message]
  const input = digestInput(options.previousMac, messages, v, options.timersOnly ?? false)
  const mac = new Uint8Array(await crypto.subtle.sign('HMAC', await cryptoKey(key), input))
  return { message: appendTsig(message, v, mac), mac }
}

/**
 * Checks a MAC by its length first: longer than the hash, or shorter than 10
 * octets and half the hash, is a format error (FORMERR); empty is BADSIG. A truncated MAC of an
 * allowed length is compared with as many octets of ours: a mismatch is BADSIG, a match BADTRUNC
 * (we accept only whole MACs), which the reply, its MAC verified, is signed with.
 */
export async function macMatches(
  key: TsigKey,
  tsig: TsigRecord,
  previousMac: Uint8Array | undefined,
  messages: Uint8Array[],
  timersOnly: boolean
): Promise<void> {
  const expected = HASHES[key.algorithm].length
  const length = tsig.mac.length
  if (length === 0) throw new TsigError('BADSIG', 'the MAC is empty')
  if (length > expected || length < Math.max(10, expected / 2)) {
    throw new TsigError('BADSIG', `a MAC of ${length} octets is malformed`, FORMERR)
  }
  const v: Variables = {
    key,
    timeSigned: tsig.timeSigned,
    fudge: tsig.fudge,
    error: tsig.error,
    other: tsig.other,
  }
  const input = digestInput(previousMac, messages, v, timersOnly)
  const cryptoKeyOf = await cryptoKey(key)
  if (length === expected) {
    if (!(await crypto.subtle.verify('HMAC', cryptoKeyOf, tsig.mac, input))) {
      throw new TsigError('BADSIG', 'MAC does not verify')
    }
    return
  }
  const ours = new Uint8Array(await crypto.subtle.sign('HMAC', cryptoKeyOf, input))
  let diff = 0
  for (let i = 0; i < length; i++) diff |= ours[i]! ^ tsig.mac[i]!
  if (diff !== 0) throw new TsigError('BADSIG', 'MAC does not verify')
  throw new TsigError('BADTRUNC', 'truncated MACs are not accepted')
}

/**
 * The most clock skew accepted, in seconds, whatever fudge a signer put in its message. The fudge
 * field allows up to 65,535 s, and a signed message stays valid for that long either side of its
 * time: a sender's large fudge would let a captured request be replayed from an allowed address
 * for hours. The window is ours: the fudge RFC 8945 recommends, which we sign with ourselves.
 */
const MAX_ACCEPTED_FUDGE = DEFAULT_FUDGE

/** Throws BADTIME unless `now` is within the message's fudge, at most MAX_ACCEPTED_FUDGE, of its time. */
export function checkTime(tsig: TsigRecord, now: number): void {
  const fudge = Math.min(tsig.fudge, MAX_ACCEPTED_FUDGE)
  if (Math.abs(now - tsig.timeSigned) > fudge) {
    throw new TsigError(
      'BADTIME',
      `signed at ${tsig.timeSigned}, now ${now}, fudge ${tsig.fudge} (at most ${fudge} accepted)`
    )
  }
}

/** Finds the key a TSIG record names: the same canonical name and algorithm, or undefined. */
export function findKey(keys: readonly TsigKey[], tsig: TsigRecord): TsigKey | undefined {
  return keys.find((k) => canonical(k.name) === tsig.keyName && k.algorithm === tsig.algorithm)
}

export type RequestVerdict =
  | { status: 'unsigned'; message: Uint8Array }
  | { status: 'ok'; key: TsigKey; tsig: TsigRecord; message: Uint8Array }
  | { status: 'error'; error: TsigError; key: TsigKey | undefined; tsig: TsigRecord }

/**
 * Checks a signed request (RFC 8945 §5.2): key known (else BADKEY), MAC valid (else BADSIG or
 * BADTRUNC), then time within fudge, at most MAX_ACCEPTED_FUDGE (else BADTIME). `message` in the verdict is the request
 * without its TSIG record. A malformed message throws DnsFormatError.
 */
export async function verifyRequest(
  request: Uint8Array,
  keys: readonly TsigKey[],
  now: number
): Promise<RequestVerdict> {
  const { unsigned, tsig } = splitTsig(request)
  if (!tsig) return { status: 'unsigned', message: unsigned }
  const key = findKey(keys, tsig)
  try {
    if (!key) throw new TsigError('BADKEY', `unknown key ${tsig.keyName} (${tsig.algorithm})`)
    await macMatches(key, tsig, undefined, [unsigned], false)
    checkTime(tsig, now)
    return { status: 'ok', key, tsig, message: unsigned }
  } catch (err) {
    if (err instanceof TsigError) return { status: 'error', error: err, key, tsig }
    throw err
  }
}

/**
 * The TSIG part of the answer to a request that failed its check. BADKEY and
 * BADSIG get an unsigned TSIG record (empty MAC) carrying the error; BADTIME and BADTRUNC, whose
 * request MAC verified, a signed one: BADTIME with the request's time and our clock in its other
 * data, so the client can see the skew. `response` is the reply without TSIG (its rcode should
 * be the error's `rcode`).
 */
export async function signErrorResponse(
  response: Uint8Array,
  verdict: Extract<RequestVerdict, { status: 'error' }>,
  now: number
): Promise<Uint8Array> {
  const { tsig, key, error } = verdict
  const errorCode = TSIG_ERRORS[error.code]
  if (error.code === 'BADTIME' && key) {
    const clock = new ByteWriter()
    u48(clock, now)
    const signed = await signMessage(response, key, {
      time: tsig.timeSigned,
      fudge: tsig.fudge,
      previousMac: tsig.mac,
      error: errorCode,
      other: clock.finish(),
    })
    return signed.message
  }
  if (error.code === 'BADTRUNC' && key) {
    const signed = await signMessage(response, key, {
      time: now,
      fudge: tsig.fudge,
      previousMac: tsig.mac,
      error: errorCode,
    })
    return signed.message
  }
  // The record names the key and algorithm the client used, even when we do not know them.
  const asKey = {
    name: tsig.keyName,
    algorithm: tsig.algorithm as TsigAlgorithm,
    secret: new Uint8Array(0),
  }
  const v: Variables = {
    key: asKey,
    timeSigned: tsig.timeSigned,
    fudge: tsig.fudge,
    error: errorCode,
    other: new Uint8Array(0),
  }
  return appendTsig(response, v, new Uint8Array(0))
}
