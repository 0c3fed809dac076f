/**
 * @module types/dnssec: key and digest records — CERT, DNSKEY, DS, SMIMEA, TLSA, SSHFP.
 * Numbers first, then one base64 or hex blob (which may be split by spaces on input).
 */
import { CERT_TYPES, DNSSEC_ALGORITHMS, DS_DIGEST_TYPES } from '@edgedns/dns-facts'
import { z } from 'zod'
import { words } from '../charstring.ts'
import { parseBase64, parseHex } from '../encoding.ts'
import { fail } from '../errors.ts'
import { str, u16, u8 } from '../fields.ts'
import { numberToken } from './common.ts'
import { defineData } from './define.ts'
import { KEY_EXAMPLE, SHA256_EXAMPLE } from './examples.ts'

/** A mnemonic of `table` (own keys only: never an inherited name such as `constructor`), or a number. */
function mnemonic(token: string | undefined, table: Readonly<Record<string, number>>) {
  const upper = token?.toUpperCase()
  return upper !== undefined && Object.hasOwn(table, upper) ? table[upper] : numberToken(token)
}

/** Split `n` leading number tokens from a trailing blob (the rest, joined). */
function split(content: string, n: number, form: string): [string[], string] {
  const w = words(content)
  if (w.length < n + 1) fail(`expected "${form}"`)
  return [w.slice(0, n), w.slice(n).join('')]
}

const certSchema = z.object({ type: u16(), key_tag: u16(), algorithm: u8(), certificate: str() })
export const CERT = defineData<z.infer<typeof certSchema>>({
  type: 'CERT',
  errorCode: 9122,
  example: {
    fields: { content: `1 12345 8 ${KEY_EXAMPLE}` },
    presentation: `1 12345 8 ${KEY_EXAMPLE}`,
  },
  dataSchema: certSchema,
  parseContent(content) {
    const [[type, keyTag, alg], certificate] = split(content, 3, 'type key_tag algorithm cert')
    return {
      data: {
        type: mnemonic(type, CERT_TYPES),
        key_tag: numberToken(keyTag),
        algorithm: mnemonic(alg, DNSSEC_ALGORITHMS),
        certificate,
      },
    }
  },
  canonicalize: (d) => ({ ...d, certificate: parseBase64(d.certificate, 'data.certificate') }),
  formatData: (d) => `${d.type} ${d.key_tag} ${d.algorithm} ${d.certificate}`,
})

const dnskeySchema = z.object({ flags: u16(), protocol: u8(), algorithm: u8(), public_key: str() })
export const DNSKEY = defineData<z.infer<typeof dnskeySchema>>({
  type: 'DNSKEY',
  errorCode: 9123,
  example: {
    fields: { content: `257 3 13 ${KEY_EXAMPLE}` },
    presentation: `257 3 13 ${KEY_EXAMPLE}`,
  },
  dataSchema: dnskeySchema,
  parseContent(content) {
    const [[flags, protocol, alg], key] = split(content, 3, 'flags protocol algorithm key')
    return {
      data: {
        flags: numberToken(flags),
        protocol: numberToken(protocol),
        algorithm: mnemonic(alg, DNSSEC_ALGORITHMS),
        public_key: key,
      },
    }
  },
  canonicalize: (d) => ({ ...d, public_key: parseBase64(d.public_key, 'data.public_key') }),
  formatData: (d) => `${d.flags} ${d.protocol} ${d.algorithm} ${d.public_key}`,
})

/** Hex digits of a DS digest of the given type, when its length is known. */
const dsDigestHex = (digestType: number): number | undefined => {
  const octets = DS_DIGEST_TYPES[digestType]?.octets
  return octets === undefined ? undefined : octets * 2
}

const dsSchema = z.object({ key_tag: u16(), algorithm: u8(), digest_type: u8(), digest: str() })
export const DS = defineData<z.infer<typeof dsSchema>>({
  type: 'DS',
  errorCode: 9124,
  example: {
    fields: { content: `2371 13 2 ${SHA256_EXAMPLE}` },
    presentation: `2371 13 2 ${SHA256_EXAMPLE}`,
  },
  dataSchema: dsSchema,
  parseContent(content) {
    const [[keyTag, alg, digestType], digest] = split(content, 3, 'key_tag algorithm type digest')
    return {
      data: {
        key_tag: numberToken(keyTag),
        algorithm: mnemonic(alg, DNSSEC_ALGORITHMS),
        digest_type: numberToken(digestType),
        digest,
      },
    }
  },
  canonicalize: (d) => ({
    ...d,
    digest: parseHex(d.digest, 'data.digest', dsDigestHex(d.digest_type)),
  }),
  formatData: (d) => `${d.key_tag} ${d.algorithm} ${d.digest_type} ${d.digest}`,
})

/** Hex digits per TLSA/SMIMEA matching type (RFC 6698: 1 = SHA-256, 2 = SHA-512). */
const TLSA_HEX: Record<number, number> = { 1: 64, 2: 128 }

const tlsaSchema = z.object({
  usage: u8(),
  selector: u8(),
  matching_type: u8(),
  certificate: str(),
})
type TlsaData = z.infer<typeof tlsaSchema>

function tlsaLike(type: 'TLSA' | 'SMIMEA', errorCode: number) {
  return defineData<TlsaData>({
    type,
    errorCode,
    example: {
      fields: { content: `3 1 1 ${SHA256_EXAMPLE}` },
      presentation: `3 1 1 ${SHA256_EXAMPLE}`,
    },
    dataSchema: tlsaSchema,
    parseContent(content) {
      const [[usage, selector, matching], cert] = split(content, 3, 'usage selector type data')
      return {
        data: {
          usage: numberToken(usage),
          selector: numberToken(selector),
          matching_type: numberToken(matching),
          certificate: cert,
        },
      }
    },
    canonicalize: (d) => ({
      ...d,
      certificate: parseHex(d.certificate, 'data.certificate', TLSA_HEX[d.matching_type]),
    }),
    formatData: (d) => `${d.usage} ${d.selector} ${d.matching_type} ${d.certificate}`,
  })
}

export const TLSA = tlsaLike('TLSA', 9134)
export const SMIMEA = tlsaLike('SMIMEA', 9131)

/** Hex digits per SSHFP fingerprint type (RFC 4255, 6594: 1 = SHA-1, 2 = SHA-256). */
const SSHFP_HEX: Record<number, number> = { 1: 40, 2: 64 }

const sshfpSchema = z.object({ algorithm: u8(), type: u8(), fingerprint: str() })
export const SSHFP = defineData<z.infer<typeof sshfpSchema>>({
  type: 'SSHFP',
  errorCode: 9132,
  example: { fields: { content: `4 2 ${SHA256_EXAMPLE}` }, presentation: `4 2 ${SHA256_EXAMPLE}` },
  dataSchema: sshfpSchema,
  parseContent(content) {
    const [[alg, type], fingerprint] = split(content, 2, 'algorithm type fingerprint')
    return { data: { algorithm: numberToken(alg), type: numberToken(type), fingerprint } }
  },
  canonicalize: (d) => ({
    ...d,
    fingerprint: parseHex(d.fingerprint, 'data.fingerprint', SSHFP_HEX[d.type]),
  }),
  formatData: (d) => `${d.algorithm} ${d.type} ${d.fingerprint}`,
})
