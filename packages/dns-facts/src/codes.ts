/**
 * @module DNS classes (RFC 1035, 2136), opcodes (RFC 1035, 1996, 2136, 8490) and rcodes
 * (RFC 1035, 2136, 6891).
 */

export const CLASSES = Object.freeze({ IN: 1, CH: 3, HS: 4, NONE: 254, ANY: 255 } as const)

export const OPCODES = Object.freeze({
  QUERY: 0,
  IQUERY: 1,
  STATUS: 2,
  NOTIFY: 4,
  UPDATE: 5,
  DSO: 6,
} as const)

/** Rcodes; BADVERS (16) needs the OPT record's extended bits. */
export const RCODES = Object.freeze({
  NOERROR: 0,
  FORMERR: 1,
  SERVFAIL: 2,
  NXDOMAIN: 3,
  NOTIMP: 4,
  REFUSED: 5,
  YXDOMAIN: 6,
  YXRRSET: 7,
  NXRRSET: 8,
  NOTAUTH: 9,
  NOTZONE: 10,
  BADVERS: 16,
} as const)

export type RcodeName = keyof typeof RCODES

const RCODE_NAMES = new Map<number, string>(Object.entries(RCODES).map(([n, c]) => [c, n]))

export function rcodeValue(rcode: RcodeName | number): number {
  return typeof rcode === 'number' ? rcode : RCODES[rcode]
}

/** Mnemonic for an rcode, or `RCODE<n>` when it has none. */
export function rcodeName(code: number): string {
  return RCODE_NAMES.get(code) ?? `RCODE${code}`
}
