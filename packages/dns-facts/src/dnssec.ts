/**
 * @module DNSSEC and certificate number tables: algorithm mnemonics (RFC 4034 App. A.1, RFC 8624
 * registry), DS digest types (RFC 4034, 4509, 5933, 6605) and CERT types (RFC 4398 §2.1).
 */

/** DNSSEC algorithm mnemonics accepted wherever an algorithm field takes one (CERT, DNSKEY, DS). */
export const DNSSEC_ALGORITHMS: Readonly<Record<string, number>> = Object.freeze({
  RSAMD5: 1,
  DH: 2,
  DSA: 3,
  RSASHA1: 5,
  'DSA-NSEC3-SHA1': 6,
  'RSASHA1-NSEC3-SHA1': 7,
  RSASHA256: 8,
  RSASHA512: 10,
  'ECC-GOST': 12,
  ECDSAP256SHA256: 13,
  ECDSAP384SHA384: 14,
  ED25519: 15,
  ED448: 16,
  INDIRECT: 252,
  PRIVATEDNS: 253,
  PRIVATEOID: 254,
})

/**
 * DS digest types and their digest length in octets. GOST (3) is deprecated (RFC 8624: MUST NOT
 * be used) and its length is not checked.
 */
export const DS_DIGEST_TYPES: Readonly<Record<number, { name: string; octets?: number }>> =
  Object.freeze({
    1: { name: 'SHA-1', octets: 20 },
    2: { name: 'SHA-256', octets: 32 },
    3: { name: 'GOST R 34.11-94' },
    4: { name: 'SHA-384', octets: 48 },
  })

/** CERT type mnemonics. */
export const CERT_TYPES: Readonly<Record<string, number>> = Object.freeze({
  PKIX: 1,
  SPKI: 2,
  PGP: 3,
  IPKIX: 4,
  ISPKI: 5,
  IPGP: 6,
  ACPKIX: 7,
  IACPKIX: 8,
  URI: 253,
  OID: 254,
})
