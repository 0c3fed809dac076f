import { encodeQuery } from '@edgedns/dns-wire'
import { describe, expect, it } from 'vitest'
import { parseTsigKey, signErrorResponse, signMessage, splitTsig, verifyRequest } from './index.ts'

const NOW = 1_800_000_000
const key = parseTsigKey('hmac-sha256:xfr-key.example.:c2VjcmV0LXNoYTI1Ni1rZXktbWF0ZXJpYWw=')
const query = (): Uint8Array => encodeQuery('example.com', 'AXFR', { id: 4242, rd: false })
const reply = (): Uint8Array => {
  const m = query()
  m[2] = 0x84
  return m
}

/** A signed message (32-octet MAC, no other data) with its MAC replaced by `mac`. */
function withMac(signed: Uint8Array, mac: Uint8Array): Uint8Array {
  const tail = 6 // original id, error, other length
  const macAt = signed.length - tail - 32
  // The TSIG rdata runs from after its length field to the end of the message.
  let rdlengthAt = macAt
  while (((signed[rdlengthAt]! << 8) | signed[rdlengthAt + 1]!) !== signed.length - rdlengthAt - 2)
    rdlengthAt--
  const out = new Uint8Array([
    ...signed.subarray(0, macAt - 2),
    mac.length >> 8,
    mac.length & 0xff,
    ...mac,
    ...signed.subarray(signed.length - tail),
  ])
  const rdlength = out.length - rdlengthAt - 2
  out[rdlengthAt] = rdlength >> 8
  out[rdlengthAt + 1] = rdlength & 0xff
  return out
}

async function verdictFor(mac: (full: Uint8Array) => Uint8Array) {
  const signed = await signMessage(query(), key, { time: NOW })
  const verdict = await verifyRequest(withMac(signed.message, mac(signed.mac)), [key], NOW)
  if (verdict.status !== 'error') throw new Error(`expected an error, got ${verdict.status}`)
  return verdict
}

describe('TSIG MAC lengths of a request', () => {
  it('a MAC longer than its hash is a format error: FORMERR, BADSIG in an unsigned TSIG', async () => {
    const verdict = await verdictFor((full) => new Uint8Array([...full, 0, 0, 0, 0]))
    expect(verdict.error).toMatchObject({ code: 'BADSIG', rcode: 1 })
    const answer = splitTsig(await signErrorResponse(reply(), verdict, NOW)).tsig
    expect(answer).toMatchObject({ error: 16, mac: new Uint8Array(0) })
  })

  it('a MAC shorter than 10 octets and half the hash is a format error (FORMERR)', async () => {
    for (const length of [1, 9, 15]) {
      const verdict = await verdictFor((full) => full.slice(0, length))
      expect(verdict.error).toMatchObject({ code: 'BADSIG', rcode: 1 })
    }
  })

  it('an empty MAC is BADSIG', async () => {
    const verdict = await verdictFor(() => new Uint8Array(0))
    expect(verdict.error).toMatchObject({ code: 'BADSIG', rcode: 9 })
  })

  it('a truncated MAC that is not a prefix of ours is BADSIG, answered unsigned', async () => {
    const verdict = await verdictFor(() => new Uint8Array(16))
    expect(verdict.error).toMatchObject({ code: 'BADSIG', rcode: 9 })
    const answer = splitTsig(await signErrorResponse(reply(), verdict, NOW)).tsig
    expect(answer?.mac.length).toBe(0)
  })

  it('a truncated MAC that matches is BADTRUNC, answered signed over the request MAC', async () => {
    const truncated = (full: Uint8Array) => full.slice(0, 16)
    const verdict = await verdictFor(truncated)
    expect(verdict.error).toMatchObject({ code: 'BADTRUNC', rcode: 9 })
    const answer = await signErrorResponse(reply(), verdict, NOW)
    expect(splitTsig(answer).tsig).toMatchObject({ error: 22, timeSigned: NOW })
    // Its MAC is the one the client computes over the MAC it sent.
    const expected = await signMessage(reply(), key, {
      time: NOW,
      previousMac: verdict.tsig.mac,
      error: 22,
    })
    expect(answer).toEqual(expected.message)
  })
})
