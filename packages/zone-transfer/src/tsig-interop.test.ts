/**
 * Our TSIG and transfer messages against independent implementations: BIND's `dig` and Knot's
 * `kdig` sign the requests (we verify them) and verify our signed, multi-message answers.
 * Both tools are installed by `.ci/run` (Debian packages bind9-dnsutils and knot-dnsutils).
 */
import { execFile } from 'node:child_process'
import net from 'node:net'
import { promisify } from 'node:util'
import type { ResponseRR } from '@edgedns/dns-wire'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { answerTransfer, parseTsigKey, splitTsig, type TransferZone } from './index.ts'

const run = promisify(execFile)
const SHA256 = 'hmac-sha256:xfr-key:c2VjcmV0LXNoYTI1Ni1rZXktbWF0ZXJpYWwtMzItb2N0ZXRz'
const SHA512 =
  'hmac-sha512:other-key:c2VjcmV0LXNoYTUxMi1rZXktbWF0ZXJpYWwtNjQtb2N0ZXRzLWxvbmctZW5vdWdoLXRvLWJlLWhhcHB5'
const keys = [parseTsigKey(SHA256), parseTsigKey(SHA512)]

const soa: ResponseRR = {
  name: 'example.test',
  type: 6,
  ttl: 3600,
  rdata: 'ns1.example.test. admin.example.test. 2026112603 7200 3600 1209600 300',
}
const records: ResponseRR[] = [
  { name: 'example.test', type: 2, ttl: 3600, rdata: 'ns1.example.test.' },
]
for (let i = 0; i < 3000; i++) {
  records.push({
    name: `r${i}.example.test`,
    type: 16,
    ttl: 300,
    rdata: `"value ${i} of a zone that needs several messages"`,
  })
}
const zone: TransferZone = {
  soa,
  records: () => records,
  steps: [
    {
      from: 2026112601,
      to: 2026112602,
      deleted: [{ name: 'old.example.test', type: 1, ttl: 300, rdata: '192.0.2.1' }],
      added: [{ name: 'new.example.test', type: 1, ttl: 300, rdata: '192.0.2.2' }],
    },
    {
      from: 2026112602,
      to: 2026112603,
      deleted: [],
      added: [{ name: 'newer.example.test', type: 28, ttl: 300, rdata: '2001:db8::3' }],
    },
  ],
}

/** What the test server does: its clock offset, and whether it spoils the last message's MAC. */
const behaviour = { skew: 0, spoilMac: -1, verdicts: [] as string[] }
let server: net.Server
let port = 0

beforeAll(async () => {
  server = net.createServer((socket) => {
    let pending = Buffer.alloc(0)
    socket.on('error', () => socket.destroy())
    socket.on('data', async (chunk) => {
      pending = Buffer.concat([pending, chunk])
      while (pending.length >= 2 && pending.length >= 2 + pending.readUInt16BE(0)) {
        const request = new Uint8Array(pending.subarray(2, 2 + pending.readUInt16BE(0)))
        pending = pending.subarray(2 + request.length)
        const tsig = splitTsig(request).tsig
        behaviour.verdicts.push(tsig ? `${tsig.keyName} ${tsig.algorithm}` : 'unsigned')
        const answer = await answerTransfer(
          request,
          (name) => (name === 'example.test' ? zone : null),
          {
            keys,
            requireTsig: true,
            now: Math.floor(Date.now() / 1000) + behaviour.skew,
          }
        )
        const spoiled = answer[behaviour.spoilMac]
        // The MAC ends 6 octets before the end of the message (ID, error, empty other data follow).
        if (spoiled) spoiled[spoiled.length - 7] = spoiled[spoiled.length - 7]! ^ 1
        for (const m of answer) {
          const length = Buffer.alloc(2)
          length.writeUInt16BE(m.length)
          socket.write(Buffer.concat([length, m]))
        }
      }
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  port = (server.address() as net.AddressInfo).port
})

afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())))

async function tool(cmd: 'dig' | 'kdig', key: string, ...query: string[]): Promise<string> {
  try {
    const { stdout, stderr } = await run(cmd, [
      '-y',
      key,
      '-p',
      String(port),
      '@127.0.0.1',
      ...query,
    ])
    return stdout + stderr
  } catch (err) {
    const e = err as { stdout?: string; stderr?: string }
    return `${e.stdout ?? ''}${e.stderr ?? ''}`
  }
}

function reset(skew = 0, spoilMac = -1): void {
  Object.assign(behaviour, { skew, spoilMac, verdicts: [] })
}

describe('TSIG interop with BIND (dig) and Knot (kdig)', () => {
  it('dig signs an AXFR with hmac-sha256 and verifies our ten signed messages', async () => {
    reset()
    const out = await tool('dig', SHA256, 'example.test', 'AXFR')
    expect(behaviour.verdicts).toEqual(['xfr-key hmac-sha256'])
    expect(out).not.toMatch(/verify|failed/i)
    expect(out.slice(-300)).toMatch(/XFR size: 3003 records \(messages 10,/)
  })

  it('kdig signs an AXFR with hmac-sha512 and verifies our signed messages', async () => {
    reset()
    const out = await tool('kdig', SHA512, 'example.test', 'AXFR')
    expect(behaviour.verdicts).toEqual(['other-key hmac-sha512'])
    expect(out).not.toMatch(/;; (ERROR|WARNING)/)
    expect(out.slice(-300)).toMatch(/\(10 messages, 3003 records\)/)
  })

  it.each([0, 1, 3])('dig refuses our AXFR when the MAC of message %i is wrong', async (at) => {
    reset(0, at)
    expect(await tool('dig', SHA256, 'example.test', 'AXFR')).toMatch(/Transfer failed|verify/i)
  })

  // kdig (Knot 3.2) did not reject a wrong MAC after the first message of a transfer in our runs;
  // dig (above) rejects it in any message.
  it('kdig refuses our AXFR when the MAC of its first message is wrong', async () => {
    reset(0, 0)
    expect((await tool('kdig', SHA512, 'example.test', 'AXFR')).slice(-300)).toMatch(/;; ERROR/)
  })

  it('a request signed with another secret gets BADSIG, which dig and kdig read', async () => {
    reset()
    const wrong = 'hmac-sha256:xfr-key:YW5vdGhlci1zZWNyZXQtb2YtdGhpcnR5LXR3by1vY3RldHM='
    expect(await tool('dig', wrong, 'example.test', 'AXFR')).toMatch(/BADSIG/)
    expect(await tool('kdig', wrong, 'example.test', 'AXFR')).toMatch(/BADSIG/)
  })

  it('a key we do not know gets BADKEY', async () => {
    reset()
    const unknown = 'hmac-sha256:nobody:YW5vdGhlci1zZWNyZXQtb2YtdGhpcnR5LXR3by1vY3RldHM='
    expect(await tool('kdig', unknown, 'example.test', 'AXFR')).toMatch(/BADKEY/)
  })

  it('a MAC truncated to 128 bits gets BADTRUNC, signed so that dig verifies it', async () => {
    reset()
    const out = await tool(
      'dig',
      SHA256.replace('hmac-sha256', 'hmac-sha256-128'),
      'example.test',
      'AXFR'
    )
    expect(out).toMatch(/BADTRUNC/)
    // dig reports a verified answer's TSIG error; an unsigned one would fail its verification.
    expect(out).toMatch(/tsig indicates error/)
    expect(out).not.toMatch(/tsig verify failure/)
  })

  it('a clock outside the fudge gets a signed BADTIME that kdig reads', async () => {
    reset(1000)
    expect(await tool('kdig', SHA256, 'example.test', 'AXFR')).toMatch(/BADTIME/)
  })

  it('dig gets the condensed IXFR from an older serial, signed', async () => {
    reset()
    const out = await tool('dig', SHA256, 'example.test', 'IXFR=2026112601', '+onesoa')
    expect(out).not.toMatch(/verify|failed/i)
    const lines = out.split('\n').filter((l) => /\sIN\s/.test(l) && !l.startsWith(';'))
    expect(
      lines.map((l) => l.split(/\s+/).slice(0, 4).join(' ')).map((l) => l.replace(/\s+/g, ' '))
    ).toEqual([
      'example.test. 3600 IN SOA',
      'example.test. 3600 IN SOA',
      'old.example.test. 300 IN A',
      'example.test. 3600 IN SOA',
      'new.example.test. 300 IN A',
      'newer.example.test. 300 IN AAAA',
      'example.test. 3600 IN SOA',
    ])
  })

  it('kdig gets the single SOA when it is up to date', async () => {
    reset()
    const out = await tool('kdig', SHA256, 'example.test', 'IXFR=2026112603')
    expect(out).not.toMatch(/;; (ERROR|WARNING)/)
    expect(out).toMatch(/\(1 messages, 1 records\)/)
  })
})
