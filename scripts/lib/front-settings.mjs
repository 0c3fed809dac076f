/**
 * @module The DNS front's settings, read from the environment (`pnpm dns-front`, the systemd
 * unit's EnvironmentFile, the container's `--env-file`). SETTINGS lists every variable with its
 * default; `frontSettings(env)` turns them into startDnsFront's options or throws an Error that
 * names the variable and what it must be; `usage()` is the front's `--help`.
 */
import net from 'node:net'

/** The longest a Node.js timer waits (2^31 − 1 ms); a longer one fires at once. */
const MAX_TIMER_MS = 2_147_483_647

/** Every variable the front reads: [name, default ('' = none), what it is]. */
export const SETTINGS = [
  ['DNS_FRONT_DOH', '', 'base URL of the DoH worker (required)'],
  ['DNS_FRONT_API', '', 'base URL of the API worker (default DNS_FRONT_DOH)'],
  ['DNS_FRONT_TOKEN', '', 'API token with Zone Transfer Relay (transfers and NOTIFY relayed)'],
  ['DNS_FRONT_HOST', '0.0.0.0', 'IPv4 or IPv6 address to listen on (:: for both)'],
  ['DNS_FRONT_PORT', '53', 'port, UDP and TCP'],
  ['DNS_FRONT_UDP_SOCKETS', '8', 'UDP sockets sharing the port (SO_REUSEPORT, Node.js 22.12+)'],
  ['DNS_FRONT_CACHE_MAX_TTL', '5', 'seconds an answer may stay in the cache at most (0 = off)'],
  ['DNS_FRONT_CACHE_ENTRIES', '50000', 'answers the cache holds at most'],
  ['DNS_FRONT_CACHE_BYTES', '33554432', 'bytes the cached answers take at most'],
  ['DNS_FRONT_RRL_RATE', '20', 'UDP responses per second per client network and answer (0 = off)'],
  ['DNS_FRONT_RRL_SLIP', '2', 'every Nth response over the limit goes out truncated (0 = none)'],
  ['DNS_FRONT_RRL_BUCKETS', '100000', 'rate-limit buckets kept at most'],
  ['DNS_FRONT_UPSTREAM_CONCURRENCY', '64', 'DoH requests in flight at most'],
  ['DNS_FRONT_UPSTREAM_QUEUE', '512', 'queries waiting for the upstream at most'],
  ['DNS_FRONT_UPSTREAM_TIMEOUT_MS', '2000', 'milliseconds before a query is answered SERVFAIL'],
  [
    'DNS_FRONT_RELAY_TIMEOUT_MS',
    '10000',
    'milliseconds the API may take to start a relayed transfer or NOTIFY answer, or between its parts',
  ],
  [
    'DNS_FRONT_RELAY_MAX_SECONDS',
    '7200',
    'seconds a relayed transfer over TCP may take in all; past it, it is cut off',
  ],
  [
    'DNS_FRONT_UPSTREAM_CLIENT_RATE',
    '1000',
    'cache misses per second per client network (0 = off)',
  ],
  [
    'DNS_FRONT_RELAY_CLIENT_RATE',
    '1000',
    'transfers, signed queries and NOTIFY relayed over TCP per second per client network (0 = off)',
  ],
  [
    'DNS_FRONT_RELAY_CLIENT_CONCURRENCY',
    '128',
    'relays over TCP in flight per client network at most (0 = no limit)',
  ],
  ['DNS_FRONT_RELAY_CONCURRENCY', '512', 'relays over TCP in flight at most (0 = no limit)'],
  [
    'DNS_FRONT_RELAY_UDP_CLIENT_CONCURRENCY',
    '128',
    'relays over UDP in flight per client network at most (0 = no limit)',
  ],
  ['DNS_FRONT_RELAY_UDP_CONCURRENCY', '512', 'relays over UDP in flight at most (0 = no limit)'],
  ['DNS_FRONT_TCP_CLIENTS', '1000', 'TCP connections open at once at most'],
  [
    'DNS_FRONT_TCP_CLIENT_CONNECTIONS',
    '256',
    'TCP connections one client network (IPv4 /24, IPv6 /56) may have open at once',
  ],
]

const DEFAULTS = Object.fromEntries(SETTINGS.map(([name, value]) => [name, value]))

function number(env, name, { min = 0, max = Number.MAX_SAFE_INTEGER, integer = true } = {}) {
  const raw = env[name] || DEFAULTS[name]
  const n = Number(raw)
  if (
    raw.trim() === '' ||
    !Number.isFinite(n) ||
    n < min ||
    n > max ||
    (integer && !Number.isInteger(n))
  ) {
    throw new Error(
      `${name} must be ${integer ? 'an integer' : 'a number'} from ${min} to ${max}; got ${JSON.stringify(raw)}`
    )
  }
  return n
}

function url(env, name) {
  const raw = env[name]
  if (!raw) return undefined
  try {
    const u = new URL(raw)
    if (u.protocol === 'http:' || u.protocol === 'https:') return raw.replace(/\/$/, '')
  } catch {}
  throw new Error(`${name} must be an http(s) URL; got ${JSON.stringify(raw)}`)
}

/** The address to listen on: an IP address (the UDP socket's family follows it). */
function host(env) {
  const raw = env.DNS_FRONT_HOST || DEFAULTS.DNS_FRONT_HOST
  if (net.isIP(raw)) return raw
  throw new Error(`DNS_FRONT_HOST must be an IPv4 or IPv6 address; got ${JSON.stringify(raw)}`)
}

/** The front's `--help`: what it is, and every setting with its default. */
export function usage() {
  const width = Math.max(...SETTINGS.map(([name]) => name.length))
  const lines = SETTINGS.map(
    ([name, value, what]) => `  ${name.padEnd(width)}  ${what}${value ? ` [${value}]` : ''}`
  )
  return [
    'dns-front: plain DNS on UDP and TCP in front of the DoH endpoint (docs/dns-front.md).',
    'It takes no arguments; its settings come from the environment [default]:',
    ...lines,
  ].join('\n')
}

/** startDnsFront's options from `env`. */
export function frontSettings(env) {
  const target = url(env, 'DNS_FRONT_DOH')
  if (!target) throw new Error('DNS_FRONT_DOH must be set to the base URL of the DoH worker')
  const api = url(env, 'DNS_FRONT_API') ?? target
  const token = env.DNS_FRONT_TOKEN || undefined
  return {
    target,
    host: host(env),
    port: number(env, 'DNS_FRONT_PORT', { max: 65535 }),
    udpSockets: number(env, 'DNS_FRONT_UDP_SOCKETS', { min: 1, max: 64 }),
    tcpClients: number(env, 'DNS_FRONT_TCP_CLIENTS', { min: 1 }),
    tcpClientConnections: number(env, 'DNS_FRONT_TCP_CLIENT_CONNECTIONS', { min: 1 }),
    relayTimeoutMs: number(env, 'DNS_FRONT_RELAY_TIMEOUT_MS', { min: 1, max: MAX_TIMER_MS }),
    relayMaxSeconds: number(env, 'DNS_FRONT_RELAY_MAX_SECONDS', {
      min: 1,
      max: Math.floor(MAX_TIMER_MS / 1000),
    }),
    relayLimits: {
      clientRate: number(env, 'DNS_FRONT_RELAY_CLIENT_RATE'),
      clientConcurrency: number(env, 'DNS_FRONT_RELAY_CLIENT_CONCURRENCY'),
      concurrency: number(env, 'DNS_FRONT_RELAY_CONCURRENCY'),
      maxBuckets: number(env, 'DNS_FRONT_RRL_BUCKETS', { min: 1 }),
    },
    udpRelayLimits: {
      clientConcurrency: number(env, 'DNS_FRONT_RELAY_UDP_CLIENT_CONCURRENCY'),
      concurrency: number(env, 'DNS_FRONT_RELAY_UDP_CONCURRENCY'),
    },
    ...(token ? { transfer: { token, api }, notify: { token, api } } : {}),
    cache: {
      maxTtl: number(env, 'DNS_FRONT_CACHE_MAX_TTL', { max: 86400, integer: false }),
      maxEntries: number(env, 'DNS_FRONT_CACHE_ENTRIES', { min: 1 }),
      maxBytes: number(env, 'DNS_FRONT_CACHE_BYTES', { min: 1024 }),
    },
    rrl: {
      rate: number(env, 'DNS_FRONT_RRL_RATE'),
      slip: number(env, 'DNS_FRONT_RRL_SLIP', { max: 10 }),
      maxBuckets: number(env, 'DNS_FRONT_RRL_BUCKETS', { min: 1 }),
    },
    upstream: {
      concurrency: number(env, 'DNS_FRONT_UPSTREAM_CONCURRENCY', { min: 1 }),
      queue: number(env, 'DNS_FRONT_UPSTREAM_QUEUE'),
      timeoutMs: number(env, 'DNS_FRONT_UPSTREAM_TIMEOUT_MS', { min: 1, max: MAX_TIMER_MS }),
      perClient: {
        rate: number(env, 'DNS_FRONT_UPSTREAM_CLIENT_RATE'),
        maxBuckets: number(env, 'DNS_FRONT_RRL_BUCKETS', { min: 1 }),
      },
    },
  }
}
