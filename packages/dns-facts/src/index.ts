/**
 * @module @edgedns/dns-facts: the one table of DNS facts (record types, classes, opcodes,
 * rcodes, DNSSEC algorithms, DS digest types, CERT types), presentation-name normalisation and
 * which hosts name this machine (loopback). No dependencies, no I/O.
 */
export * from './rr-types.ts'
export * from './codes.ts'
export * from './dnssec.ts'
export * from './names.ts'
export * from './svc-params.ts'
export * from './loopback.ts'
