/**
 * @module Online DNSSEC signing without Cloudflare bindings: keys (ECDSA P-256/SHA-256 through
 * WebCrypto), sealing private keys under a secret, RRSIGs, compact denial (RFC 9824), and a cache
 * of signatures.
 */
export {
  ALGORITHM,
  CSK_FLAGS,
  DIGEST_ALGORITHM,
  DIGEST_TYPE,
  KEY_TAG_ATTEMPTS,
  KEY_TYPE,
  KeyTagCollision,
  dnskeyRdata,
  dsDigest,
  dsRecord,
  generateSigningKey,
  generateSigningKeyAvoiding,
  importPrivateKey,
  importPublicKey,
  keyTag,
  type GeneratedKey,
} from './keys.ts'
export { MIN_SECRET_LENGTH, SealError, openPrivateKey, sealPrivateKey } from './seal.ts'
export { signRRset, verifyRRset, type RRsetToSign, type SigningKey } from './rrsig.ts'
export { signResolution, type SignOptions } from './sign-answer.ts'
export { SignatureCache } from './signature-cache.ts'
export { DEFAULT_VALIDITY, validityAt, type Validity, type ValidityPolicy } from './validity.ts'
export { NSEC, NXNAME, RRSIG, typeBitmaps } from './nsec.ts'
