import { decodeMessage, encodeQuery } from '@edgedns/dns-wire'
import { describe, expect, it } from 'vitest'
import {
  TsigStreamVerifier,
  answerNotify,
  isNotify,
  parseTsigKey,
  signMessage,
  splitTsig,
} from './index.ts'

const NOW = 1_800_000_000
const key = parseTsigKey('xfr-key:c2VjcmV0LXNoYTI1Ni1rZXktbWF0ZXJpYWw=')
const other = parseTsigKey('xfr-key:b3RoZXItc2VjcmV0LW9mLWVub3VnaC1sZW5ndGg=')
const notify = encodeQuery('Example.Test', 'SOA', { id: 7, opcode: 4, rd: false })
const fromPrimary = async (zone: string) => (zone === 'example.test' ? { key } : null)

describe('answering a NOTIFY as a secondary', () => {
  it('recognises a NOTIFY query by its opcode', () => {
    expect(isNotify(notify)).toBe(true)
    expect(isNotify(encodeQuery('example.test', 'SOA'))).toBe(false)
  })

  it('accepts a NOTIFY signed with the primary key and signs the answer', async () => {
    const signed = await signMessage(notify, key, { time: NOW })
    const out = await answerNotify(signed.message, fromPrimary, NOW)
    expect(out).toMatchObject({ zone: 'example.test', accepted: true })
    const verified = await new TsigStreamVerifier(key, signed.mac, () => NOW).next(out.response!)
    const m = decodeMessage(verified)
    expect(m).toMatchObject({ id: 7, qr: true, opcode: 4, rcode: 0 })
    expect(m.question[0]!.name).toBe('Example.Test.')
  })

  it('refuses an unsigned NOTIFY when the primary has a key, and one for a zone it does not serve', async () => {
    const unsigned = await answerNotify(notify, fromPrimary, NOW)
    expect(unsigned.accepted).toBe(false)
    expect(decodeMessage(unsigned.response!).rcode).toBe(5)
    const elsewhere = await answerNotify(
      encodeQuery('other.test', 'SOA', { id: 7, opcode: 4 }),
      fromPrimary,
      NOW
    )
    expect(elsewhere.accepted).toBe(false)
    expect(decodeMessage(elsewhere.response!).rcode).toBe(5)
  })

  it('answers NOTAUTH (BADSIG) to a NOTIFY signed with another secret', async () => {
    const signed = await signMessage(notify, other, { time: NOW })
    const out = await answerNotify(signed.message, fromPrimary, NOW)
    expect(out.accepted).toBe(false)
    expect(decodeMessage(splitTsig(out.response!).unsigned).rcode).toBe(9)
    expect(splitTsig(out.response!).tsig?.error).toBe(16)
  })

  it('accepts an unsigned NOTIFY from a primary without a key', async () => {
    const out = await answerNotify(notify, async () => ({ key: null }), NOW)
    expect(out.accepted).toBe(true)
    expect(decodeMessage(out.response!).rcode).toBe(0)
  })
})
