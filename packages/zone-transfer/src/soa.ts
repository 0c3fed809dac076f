/**
 * @module SOA helpers: reading and replacing the serial in presentation rdata, and serial
 * arithmetic (RFC 1982).
 */

function fields(rdata: string): string[] {
  const parts = rdata.replace(/[()]/g, ' ').trim().split(/\s+/)
  if (parts.length !== 7 || !/^\d+$/.test(parts[2] ?? '')) {
    throw new RangeError(`not SOA rdata: ${rdata}`)
  }
  return parts
}

/** The serial of SOA presentation rdata (`mname rname serial refresh retry expire minimum`). */
export function soaSerial(rdata: string): number {
  return Number(fields(rdata)[2])
}

/** The same SOA rdata with another serial. */
export function withSerial(rdata: string, serial: number): string {
  const parts = fields(rdata)
  parts[2] = String(serial >>> 0)
  return parts.join(' ')
}

/** RFC 1982 serial comparison: true when `a` is after `b`. */
export function serialAfter(a: number, b: number): boolean {
  return (a < b && b - a > 0x80000000) || (a > b && a - b < 0x80000000)
}
