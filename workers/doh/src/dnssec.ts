/**
 * @module Online signing of wire answers to DO=1 queries (`@edgedns/dnssec`): the zone's sealed
 * private keys are opened once per isolate with the `DNSSEC_KEY_ENCRYPTION_KEY` secret and kept
 * as non-extractable CryptoKeys; signatures are reused from an isolate-wide cache.
 */
import {
  SignatureCache,
  importPrivateKey,
  openPrivateKey,
  signResolution,
  type SigningKey,
} from '@edgedns/dnssec'
import { dnssecInEffect, type Resolution, type ZoneMeta } from '@edgedns/resolver'
import type { DohEnv } from './env.ts'

export type AnswerSigner = (result: Resolution) => Promise<Resolution>

const signatures = new SignatureCache()
/** Opened keys by sealed text (a rollover or a new zone adds entries; they are few and small). */
const opened = new Map<string, Promise<CryptoKey>>()
const MAX_OPENED = 10_000

export function signatureStats(): {
  signatureHits: number
  signatureMisses: number
  signatures: number
} {
  return {
    signatureHits: signatures.hits,
    signatureMisses: signatures.misses,
    signatures: signatures.size,
  }
}

function open(sealed: string, secret: string, zoneId: string): Promise<CryptoKey> {
  const cacheKey = `${zoneId}|${sealed}`
  let key = opened.get(cacheKey)
  if (!key) {
    key = openPrivateKey(sealed, secret, zoneId).then(importPrivateKey)
    // A failure is not remembered: the next query tries again (a secret being rotated in).
    key.catch(() => opened.delete(cacheKey))
    if (opened.size >= MAX_OPENED) opened.delete(opened.keys().next().value as string)
    opened.set(cacheKey, key)
  }
  return key
}

/** The signer for this environment's secret. Without a secret a signed zone's DO=1 answer fails (SERVFAIL). */
export function answerSigner(env: DohEnv): AnswerSigner {
  return (result) =>
    signResolution(result, {
      nowSeconds: Math.floor(Date.now() / 1000),
      cache: signatures,
      async keysFor(zone: ZoneMeta): Promise<SigningKey[] | null> {
        if (!dnssecInEffect(zone)) return null
        const secret = env.DNSSEC_KEY_ENCRYPTION_KEY
        if (!secret)
          throw new Error(
            'DNSSEC_KEY_ENCRYPTION_KEY is not set: signed zones cannot be answered with DO=1'
          )
        return Promise.all(
          zone.dnssec!.keys.map(async (k) => ({
            tag: k.tag,
            key: await open(k.sealed, secret, zone.id),
          }))
        )
      },
    })
}
