/**
 * @module @edgedns/dns-facts: the one table of DNS facts (record types, classes, opcodes,
 * rcodes, DNSSEC algorithms, DS digest types, CERT types) and presentation-name normalisation.
 * No dependencies, no I/O.
 */
export * from './rr-types.ts'
export * from './codes.ts'
export * from './dnssec.ts'
export * from './names.ts'
export * from './svc-params.ts'
