#!/usr/bin/env node
/**
 * Our codec against dns-packet, on the same messages, in Node (run with the project's Node 22,
 * which loads the TypeScript sources by type stripping):
 *
 *   pnpm --filter @edgedns/dns-wire compare            # this checkout's codec
 *   node packages/dns-wire/bench/compare.mjs /path/to/other/checkout   # another checkout's codec too
 *
 * 1. Server side (the DoH worker's work per request): decode a query, encode its response.
 * 2. Client side (SDK, tests): decode a response.
 * 3. Bundle size of the DoH worker (esbuild, minified, gzip): as built, and with dns-packet.
 *
 * Each figure is the median of RUNS timed runs (codecs interleaved, after a warm-up run).
 * dns-packet gets its records as ready-made objects: the cost of turning stored presentation
 * text into those objects (which a dns-packet worker would still pay) is not counted.
 */
import { build } from 'esbuild'
import packet from 'dns-packet'
import path from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { gzipSync } from 'node:zlib'

const HERE = path.dirname(fileURLToPath(import.meta.url))
const ROOT = path.resolve(HERE, '../../..')
const RUNS = 7
const ITERATIONS = 10_000

const ours = await import(pathToFileURL(path.join(ROOT, 'packages/dns-wire/src/index.ts')).href)
const T = ours.TYPE_CODES
const other = process.argv[2]
  ? await import(
      pathToFileURL(path.resolve(process.argv[2], 'packages/dns-wire/src/index.ts')).href
    )
  : undefined

/** The same five exchanges for every codec: [query bytes, our result, dns-packet's sections]. */
function exchanges() {
  const q = (name, type, edns) =>
    packet.encode({
      type: 'query',
      id: 0,
      flags: packet.RECURSION_DESIRED,
      questions: [{ name, type }],
      additionals: edns
        ? [
            {
              type: 'OPT',
              name: '.',
              udpPayloadSize: edns.payload ?? 1232,
              flags: edns.do ? packet.DNSSEC_OK : 0,
            },
          ]
        : [],
    })
  const soa = {
    name: 'example.com',
    type: T.SOA,
    ttl: 300,
    rdata: 'ns1.example.com. hostmaster.example.com. 1 7200 3600 1209600 300',
  }
  const rr = (name, type, ttl, rdata) => ({ name, type, ttl, rdata })
  return [
    [
      q('www.example.com', 'A', { payload: 1232 }),
      {
        rcode: 'NOERROR',
        aa: true,
        answer: [
          rr('www.example.com', T.A, 300, '192.0.2.1'),
          rr('www.example.com', T.A, 300, '192.0.2.2'),
        ],
        authority: [],
        additional: [],
      },
      [
        { type: 'A', name: 'www.example.com', ttl: 300, data: '192.0.2.1' },
        { type: 'A', name: 'www.example.com', ttl: 300, data: '192.0.2.2' },
      ],
      [],
      [],
    ],
    [
      q('example.com', 'MX', { payload: 1232, do: true }),
      {
        rcode: 'NOERROR',
        aa: true,
        answer: [
          rr('example.com', T.MX, 300, '10 mx1.example.com.'),
          rr('example.com', T.MX, 300, '20 mx2.example.com.'),
        ],
        authority: [],
        additional: [],
      },
      [
        {
          type: 'MX',
          name: 'example.com',
          ttl: 300,
          data: { preference: 10, exchange: 'mx1.example.com' },
        },
        {
          type: 'MX',
          name: 'example.com',
          ttl: 300,
          data: { preference: 20, exchange: 'mx2.example.com' },
        },
      ],
      [],
      [],
    ],
    [
      q('_sip._tcp.example.com', 'SRV', null),
      {
        rcode: 'NOERROR',
        aa: true,
        answer: [rr('_sip._tcp.example.com', T.SRV, 300, '10 5 5060 sip.example.com.')],
        authority: [],
        additional: [rr('sip.example.com', T.A, 300, '192.0.2.9')],
      },
      [
        {
          type: 'SRV',
          name: '_sip._tcp.example.com',
          ttl: 300,
          data: { priority: 10, weight: 5, port: 5060, target: 'sip.example.com' },
        },
      ],
      [],
      [{ type: 'A', name: 'sip.example.com', ttl: 300, data: '192.0.2.9' }],
    ],
    [
      q('txt.example.com', 'TXT', { payload: 1232 }),
      {
        rcode: 'NOERROR',
        aa: true,
        answer: [
          rr(
            'txt.example.com',
            T.TXT,
            300,
            '"v=spf1 include:_spf.example.net -all" "second string"'
          ),
        ],
        authority: [],
        additional: [],
      },
      [
        {
          type: 'TXT',
          name: 'txt.example.com',
          ttl: 300,
          data: ['v=spf1 include:_spf.example.net -all', 'second string'],
        },
      ],
      [],
      [],
    ],
    [
      q('nope.example.com', 'AAAA', { payload: 1232 }),
      { rcode: 'NXDOMAIN', aa: true, answer: [], authority: [soa], additional: [] },
      [],
      [
        {
          type: 'SOA',
          name: 'example.com',
          ttl: 300,
          data: {
            mname: 'ns1.example.com',
            rname: 'hostmaster.example.com',
            serial: 1,
            refresh: 7200,
            retry: 3600,
            expire: 1209600,
            minimum: 300,
          },
        },
      ],
      [],
    ],
  ]
}

function oursServer(codec) {
  const work = exchanges().map(([query, result]) => [new Uint8Array(query), result])
  return () => {
    let n = 0
    for (const [query, result] of work)
      n += codec.encodeResponse(codec.replyTo(codec.decodeQuery(query), result)).length
    return n
  }
}

/** Only the presentation-text → wire rdata part of oursServer (what a dns-packet worker would still need in some form). */
function oursRdataText(codec) {
  const records = exchanges().flatMap(([, r]) => [...r.answer, ...r.authority, ...r.additional])
  return () => records.reduce((n, rr) => n + codec.encodeRdata(rr.type, rr.rdata).length, 0)
}

function dnsPacketServer() {
  const work = exchanges().map(([query, result, answers, authorities, additionals]) => [
    Buffer.from(query),
    result.rcode,
    answers,
    authorities,
    additionals,
  ])
  return () => {
    let n = 0
    for (const [query, rcode, answers, authorities, additionals] of work) {
      const q = packet.decode(query)
      const opt = q.additionals.find((a) => a.type === 'OPT')
      const flags =
        packet.AUTHORITATIVE_ANSWER |
        (q.flags & packet.RECURSION_DESIRED) |
        (rcode === 'NXDOMAIN' ? 3 : 0)
      n += packet.encode({
        type: 'response',
        id: q.id,
        flags,
        questions: q.questions,
        answers,
        authorities,
        additionals: opt
          ? [
              ...additionals,
              { type: 'OPT', name: '.', udpPayloadSize: 1232, flags: opt.flags & packet.DNSSEC_OK },
            ]
          : additionals,
      }).length
    }
    return n
  }
}

function responses(codec) {
  return exchanges().map(([query, result]) =>
    codec.encodeResponse(codec.replyTo(codec.decodeQuery(new Uint8Array(query)), result))
  )
}

const oursClient = (codec) => {
  const bytes = responses(codec)
  return () => bytes.reduce((n, b) => n + codec.decodeMessage(b).answer.length, 0)
}
const dnsPacketClient = () => {
  const bytes = responses(ours).map((b) => Buffer.from(b))
  return () => bytes.reduce((n, b) => n + packet.decode(b).answers.length, 0)
}

function median(values) {
  const s = [...values].sort((a, b) => a - b)
  return s[Math.floor(s.length / 2)]
}

/** Messages per second of each contender, median of RUNS runs (interleaved). */
function race(contenders) {
  const perMessage = exchanges().length
  for (const fn of Object.values(contenders)) for (let i = 0; i < ITERATIONS; i++) fn()
  const rates = Object.fromEntries(Object.keys(contenders).map((k) => [k, []]))
  for (let run = 0; run < RUNS; run++) {
    for (const [name, fn] of Object.entries(contenders)) {
      const t0 = performance.now()
      for (let i = 0; i < ITERATIONS; i++) fn()
      rates[name].push((ITERATIONS * perMessage) / ((performance.now() - t0) / 1000))
    }
  }
  return Object.fromEntries(Object.entries(rates).map(([k, v]) => [k, Math.round(median(v))]))
}

/** Minified and gzipped size of a bundle; `buffer` is external (Workers provide it with nodejs_compat). */
async function bundleSize(contents, resolveDir) {
  const out = await build({
    stdin: { contents, resolveDir, loader: 'ts' },
    bundle: true,
    minify: true,
    format: 'esm',
    platform: 'neutral',
    mainFields: ['module', 'main'],
    external: ['cloudflare:*', 'node:*', 'buffer'],
    write: false,
    logLevel: 'error',
  })
  const text = out.outputFiles[0].contents
  return { min: text.length, gzip: gzipSync(text, { level: 9 }).length }
}

const server = race({
  'dns-wire': oursServer(ours),
  'dns-wire rdata text only': oursRdataText(ours),
  'dns-packet': dnsPacketServer(),
  ...(other ? { 'dns-wire (other checkout)': oursServer(other) } : {}),
})
const client = race({ 'dns-wire': oursClient(ours), 'dns-packet': dnsPacketClient() })

const worker = await bundleSize(`export { default } from './workers/doh/src/index.ts'`, ROOT)
const withPacket = await bundleSize(
  `export { default } from '../../workers/doh/src/index.ts'\nimport p from 'dns-packet'\nexport const codec = [p.encode, p.decode]`,
  path.join(ROOT, 'packages/dns-wire')
)
const wireAlone = await bundleSize(
  `export * from './src/index.ts'`,
  path.join(ROOT, 'packages/dns-wire')
)
const packetAlone = await bundleSize(
  `import p from 'dns-packet'\nexport const codec = [p.encode, p.decode]`,
  path.join(ROOT, 'packages/dns-wire')
)

const kb = (b) => `${(b / 1024).toFixed(1)} KB`
console.log(
  `Node ${process.version}, ${RUNS} runs × ${ITERATIONS} iterations × 5 messages, medians`
)
console.log('server side, decode query + encode response (messages/s):', server)
console.log('client side, decode response (messages/s):', client)
console.log(
  `DoH worker bundle, our codec:                    ${kb(worker.min)} min, ${kb(worker.gzip)} gzip`
)
console.log(
  `DoH worker bundle + dns-packet (ours kept):     ${kb(withPacket.min)} min, ${kb(withPacket.gzip)} gzip`
)
console.log(
  `dns-wire alone: ${kb(wireAlone.min)} min, ${kb(wireAlone.gzip)} gzip; dns-packet alone: ${kb(packetAlone.min)} min, ${kb(packetAlone.gzip)} gzip`
)
console.log(
  `DoH worker with dns-packet instead of all of dns-wire (estimate): ${kb(worker.min - wireAlone.min + packetAlone.min)} min, ${kb(worker.gzip - wireAlone.gzip + packetAlone.gzip)} gzip`
)
