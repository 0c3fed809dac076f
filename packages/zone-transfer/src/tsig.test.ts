import { encodeQuery } from '@edgedns/dns-wire'
import { describe, expect, it } from 'vitest'
import {
  TsigError,
  TsigStreamSigner,
  TsigStreamVerifier,
  parseTsigKey,
  signErrorResponse,
  signMessage,
  splitTsig,
  verifyRequest,
  type TsigKey,
} from './index.ts'
import { macMatches } from './tsig.ts'

const NOW = 1_800_000_000
const key256 = parseTsigKey('hmac-sha256:xfr-key.example.:c2VjcmV0LXNoYTI1Ni1rZXktbWF0ZXJpYWw=')
const key512 = parseTsigKey('hmac-sha512:Other.Key:c2VjcmV0LXNoYTUxMi1rZXktbWF0ZXJpYWwtbG9uZ2Vy')
const query = (): Uint8Array => encodeQuery('example.com', 'AXFR', { id: 4242, rd: false })
const response = (id: number, tag: number): Uint8Array => {
  const m = encodeQuery(`m${tag}.example.com`, 'A', { id })
  m[2] = 0x84
  return m
}

describe('TSIG requests', () => {
  const cases: {
    name: string
    signWith: TsigKey
    keys: TsigKey[]
    skew?: number
    tamper?: boolean
    expect: 'ok' | 'BADKEY' | 'BADSIG' | 'BADTIME'
  }[] = [
    { name: 'hmac-sha256 verifies', signWith: key256, keys: [key256], expect: 'ok' },
    { name: 'hmac-sha512 verifies', signWith: key512, keys: [key256, key512], expect: 'ok' },
    {
      name: 'key names compare canonically (case, trailing dot)',
      signWith: { ...key256, name: 'XFR-KEY.Example' },
      keys: [key256],
      expect: 'ok',
    },
    { name: 'an unknown key name is BADKEY', signWith: key512, keys: [key256], expect: 'BADKEY' },
    {
      name: 'the right name with another algorithm is BADKEY',
      signWith: { ...key256, algorithm: 'hmac-sha512' },
      keys: [key256],
      expect: 'BADKEY',
    },
    {
      name: 'another secret is BADSIG',
      signWith: { ...key256, secret: new Uint8Array([1, 2, 3]) },
      keys: [key256],
      expect: 'BADSIG',
    },
    {
      name: 'a changed octet is BADSIG',
      signWith: key256,
      keys: [key256],
      tamper: true,
      expect: 'BADSIG',
    },
    {
      name: 'skew within the fudge verifies',
      signWith: key256,
      keys: [key256],
      skew: 300,
      expect: 'ok',
    },
    {
      name: 'skew past the fudge is BADTIME',
      signWith: key256,
      keys: [key256],
      skew: -301,
      expect: 'BADTIME',
    },
  ]
  for (const c of cases) {
    it(c.name, async () => {
      const { message } = await signMessage(query(), c.signWith, { time: NOW + (c.skew ?? 0) })
      if (c.tamper) message[13] = message[13]! ^ 0x20
      const verdict = await verifyRequest(message, c.keys, NOW)
      if (c.expect === 'ok') {
        expect(verdict.status).toBe('ok')
        if (verdict.status === 'ok') expect(verdict.message).toEqual(query())
      } else {
        expect(verdict.status).toBe('error')
        if (verdict.status === 'error') expect(verdict.error.code).toBe(c.expect)
      }
    })
  }

  it('an unsigned request is reported as unsigned', async () => {
    expect((await verifyRequest(query(), [key256], NOW)).status).toBe('unsigned')
  })

  it('a TSIG record that is not the last record is a format error', async () => {
    const { message } = await signMessage(query(), key256, { time: NOW })
    const doubled = new Uint8Array([...message, ...message.subarray(query().length)])
    doubled[11] = 2
    expect(() => splitTsig(doubled)).toThrow(/not the last record/)
  })

  it('a TSIG record in the answer section is a format error', async () => {
    const { message } = await signMessage(query(), key256, { time: NOW })
    message[7] = 1 // ANCOUNT 1
    message[11] = 0 // ARCOUNT 0
    expect(() => splitTsig(message)).toThrow(/not the last record/)
  })

  it('a BADKEY or BADSIG answer carries the error in an unsigned TSIG record', async () => {
    const { message } = await signMessage(query(), key512, { time: NOW })
    const verdict = await verifyRequest(message, [key256], NOW)
    if (verdict.status !== 'error') throw new Error('expected an error')
    const answer = await signErrorResponse(response(4242, 0), verdict, NOW)
    const { tsig } = splitTsig(answer)
    expect(tsig).toMatchObject({ keyName: 'other.key', algorithm: 'hmac-sha512', error: 17 })
    expect(tsig?.mac.length).toBe(0)
  })

  it('a BADTIME answer is signed and carries our clock', async () => {
    const { message, mac } = await signMessage(query(), key256, { time: NOW - 1000 })
    const verdict = await verifyRequest(message, [key256], NOW)
    if (verdict.status !== 'error') throw new Error('expected an error')
    const answer = await signErrorResponse(response(4242, 0), verdict, NOW)
    const { tsig } = splitTsig(answer)
    expect(tsig?.error).toBe(18)
    expect([...(tsig?.other ?? [])]).toEqual([0, 0, 0x6b, 0x49, 0xd2, 0x00])
    const client = new TsigStreamVerifier(key256, mac, () => NOW - 1000)
    await expect(client.next(answer)).rejects.toMatchObject({ code: 'BADTIME' })
  })
})

describe("the time window is ours: the signer's fudge, at most 300 s", () => {
  const signed = (skew: number, fudge: number) =>
    signMessage(query(), key256, { time: NOW + skew, fudge })

  it.each([
    [65_535, 300, 'ok'],
    [65_535, -301, 'BADTIME'],
    [65_535, 3_600, 'BADTIME'],
    [100, 100, 'ok'],
    [100, -101, 'BADTIME'],
  ] as const)('fudge %i, skew %i: %s', async (fudge, skew, want) => {
    const verdict = await verifyRequest((await signed(skew, fudge)).message, [key256], NOW)
    expect(verdict.status === 'ok' ? 'ok' : verdict.status === 'error' && verdict.error.code).toBe(
      want
    )
  })

  it('a request with a large fudge replayed an hour later gets a signed BADTIME with our clock', async () => {
    const { message, mac } = await signed(-3_600, 65_535)
    const verdict = await verifyRequest(message, [key256], NOW)
    if (verdict.status !== 'error') throw new Error('expected an error')
    const answer = await signErrorResponse(response(4242, 0), verdict, NOW)
    const { tsig } = splitTsig(answer)
    // The request's time and fudge, our clock in the other data (RFC 8945 §5.2.3).
    expect(tsig).toMatchObject({ error: 18, timeSigned: NOW - 3_600, fudge: 65_535 })
    expect([...(tsig?.other ?? [])]).toEqual([0, 0, 0x6b, 0x49, 0xd2, 0x00])
    // Signed with the key, chained to the request's MAC; the requester reads BADTIME.
    await expect(
      macMatches(key256, tsig!, mac, [splitTsig(answer).unsigned], false)
    ).resolves.toBeUndefined()
    const client = new TsigStreamVerifier(key256, mac, () => NOW - 3_600)
    await expect(client.next(answer)).rejects.toMatchObject({ code: 'BADTIME' })
  })

  it("a response stream's messages are held to the same window", async () => {
    const { mac } = await signMessage(query(), key256, { time: NOW })
    const late = new TsigStreamSigner(key256, mac, NOW - 600, 65_535)
    const verifier = new TsigStreamVerifier(key256, mac, () => NOW)
    await expect(verifier.next(await late.sign(response(4242, 0)))).rejects.toMatchObject({
      code: 'BADTIME',
    })
  })
})

describe('TSIG response streams', () => {
  async function stream(
    count: number,
    signed: (i: number) => boolean
  ): Promise<{ mac: Uint8Array; messages: Uint8Array[] }> {
    const { mac } = await signMessage(query(), key256, { time: NOW })
    const signer = new TsigStreamSigner(key256, mac, NOW)
    const messages: Uint8Array[] = []
    for (let i = 0; i < count; i++) {
      const m = response(4242, i)
      messages.push(signed(i) ? await signer.sign(m) : signer.skip(m))
    }
    return { mac, messages }
  }

  async function verifyAll(mac: Uint8Array, messages: Uint8Array[], key = key256): Promise<void> {
    const verifier = new TsigStreamVerifier(key, mac, () => NOW)
    for (const m of messages) await verifier.next(m)
    verifier.finish()
  }

  it('every message signed, each chained to the prior MAC, verifies', async () => {
    const { mac, messages } = await stream(5, () => true)
    await verifyAll(mac, messages)
  })

  it('99 unsigned messages between signed ones verify', async () => {
    const { mac, messages } = await stream(101, (i) => i === 0 || i === 100)
    await verifyAll(mac, messages)
  })

  it('a 100th unsigned message in a row is refused', async () => {
    const { mac, messages } = await stream(102, (i) => i === 0 || i === 101)
    await expect(verifyAll(mac, messages)).rejects.toThrow(/more than 99 unsigned/)
  })

  it('a stream whose last message is unsigned is refused', async () => {
    const { mac, messages } = await stream(3, (i) => i === 0)
    await expect(verifyAll(mac, messages)).rejects.toThrow(/did not end with a signed message/)
  })

  it('a stream whose first message is unsigned is refused', async () => {
    const { mac, messages } = await stream(2, () => true)
    await expect(verifyAll(mac, [splitTsig(messages[0]!).unsigned, messages[1]!])).rejects.toThrow(
      /first message/
    )
  })

  it('reordered messages break the MAC chain (BADSIG)', async () => {
    const { mac, messages } = await stream(3, () => true)
    await expect(verifyAll(mac, [messages[0]!, messages[2]!, messages[1]!])).rejects.toMatchObject({
      code: 'BADSIG',
    })
  })

  it('a stream signed by a clock verifies at a receiver checking each message when it arrives, however long it lasts', async () => {
    // Each message is received when it is signed, 400 s (more than the 300-s fudge) apart.
    let t = NOW
    const { mac } = await signMessage(query(), key256, { time: NOW })
    const receive = async (signer: TsigStreamSigner): Promise<void> => {
      t = NOW
      const verifier = new TsigStreamVerifier(key256, mac, () => t)
      for (let i = 0; i < 3; i++, t += 400)
        await verifier.next(await signer.sign(response(4242, i)))
      verifier.finish()
    }
    await receive(new TsigStreamSigner(key256, mac, () => t))
    // Signed with the stream's start time throughout, the second message is already out of time.
    await expect(receive(new TsigStreamSigner(key256, mac, NOW))).rejects.toMatchObject({
      code: 'BADTIME',
    })
  })

  it('a stream answering another request (other request MAC) is refused', async () => {
    const { messages } = await stream(2, () => true)
    await expect(verifyAll(new Uint8Array(32), messages)).rejects.toBeInstanceOf(TsigError)
  })
})

describe('splitting a signed message', () => {
  it('leaves the message it reads unchanged, a Node.js Buffer (whose slice is a view) too', async () => {
    const { message } = await signMessage(query(), key256, { time: NOW })
    const buffer = Buffer.from(message)
    const before = Buffer.from(buffer)
    const { unsigned, tsig } = splitTsig(buffer)
    expect(tsig).not.toBeNull()
    expect((unsigned[10]! << 8) | unsigned[11]!).toBe(0) // ARCOUNT without the TSIG
    expect(buffer.equals(before)).toBe(true)
    // A second read of the same message finds its TSIG again.
    expect(splitTsig(buffer).tsig).not.toBeNull()
  })
})

describe('TSIG keys', () => {
  it.each([
    ['hmac-md5:k:c2VjcmV0', /unsupported TSIG algorithm/],
    ['hmac-sha256:k:***', /not base64/],
    ['k', /\[algorithm:\]name:base64-secret/],
  ])('%s is refused', (spec, error) => {
    expect(() => parseTsigKey(spec)).toThrow(error)
  })

  it('name:secret defaults to hmac-sha256 and canonical names', () => {
    expect(parseTsigKey('My.Key.:c2VjcmV0')).toMatchObject({
      name: 'my.key',
      algorithm: 'hmac-sha256',
    })
  })
})
