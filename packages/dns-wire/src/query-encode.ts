/**
 * @module Building a query message (the client side: the SDK, tests, benchmarks).
 */
import { CLASSES, OPCODES, TYPE_CODES, typeFromName } from '@edgedns/dns-facts'
import { NameError, parseName, writeName } from './names.ts'
import { writeOpt } from './opt.ts'
import { ByteWriter } from './writer.ts'

export interface QueryEdns {
  /** Advertised UDP payload size (default 1232). */
  payload?: number
  /** DNSSEC OK bit. */
  do?: boolean
  version?: number
  /** EDNS options as [code, data]. */
  options?: [number, Uint8Array][]
}

export interface QueryInit {
  /** Default 0, as RFC 8484 §4.1 recommends for cacheable GETs. */
  id?: number
  opcode?: number
  /** Recursion desired (default true). */
  rd?: boolean
  cd?: boolean
  ad?: boolean
  /** Question class (default IN). */
  class?: number
  /** Adds an OPT record; none by default. */
  edns?: QueryEdns | null
}

/**
 * A query for `name` (presentation text, `\.` and `\DDD` escapes, case kept) and `type` (code,
 * mnemonic, or `TYPE<n>`). Throws RangeError for an unknown type or a name that cannot be encoded.
 */
export function encodeQuery(name: string, type: string | number, init: QueryInit = {}): Uint8Array {
  const code = typeof type === 'number' ? type : typeFromName(type)
  if (code === undefined || !Number.isInteger(code) || code < 0 || code > 0xffff) {
    throw new RangeError(`unknown DNS type ${JSON.stringify(type)}`)
  }
  let labels
  try {
    labels = parseName(name)
  } catch (err) {
    if (err instanceof NameError) throw new RangeError(err.message)
    throw err
  }
  const edns = init.edns ?? null
  const w = new ByteWriter()
  w.u16(init.id ?? 0)
  w.u16(
    (((init.opcode ?? OPCODES.QUERY) & 0xf) << 11) |
      ((init.rd ?? true) ? 0x0100 : 0) |
      (init.ad ? 0x0020 : 0) |
      (init.cd ? 0x0010 : 0)
  )
  w.u16(1)
  w.u16(0)
  w.u16(0)
  w.u16(edns ? 1 : 0)
  writeName(w, labels)
  w.u16(code)
  w.u16(init.class ?? CLASSES.IN)
  if (edns)
    writeOpt(w, {
      payload: edns.payload ?? 1232,
      version: edns.version ?? 0,
      do: edns.do ?? false,
      options: edns.options ?? [],
    })
  return w.finish()
}
