/**
 * @module DoH worker entry: `/dns-query` (RFC 8484 GET/POST and the JSON API) answered from KV.
 */
import { MAX_MESSAGE } from '@edgedns/dns-wire'
import { logFailure } from './answer.ts'
import { decodeBase64Url, maxBase64UrlLength } from './base64url.ts'
import { readLimited } from './body.ts'
import { strictDohEnv, type DohEnv } from './env.ts'
import { inInvocation, strictBindingsOn } from '@edgedns/strict-bindings'
import { DNS_JSON, DNS_MESSAGE, methodNotAllowed, preflight, wireError } from './http.ts'
import { jsonQuery } from './json.ts'
import type { KeepAlive } from './answer-cache.ts'
import { answerCache, noteLocation, zoneView } from './view.ts'
import { answerSigner, signatureStats } from './dnssec.ts'
import { wireQuery, wireServfail } from './wire.ts'
import { plainDnsQuery } from './plain-query.ts'

// Only handlers may be exported here.
/** base64url length of the largest message (unpadded), plus room for padding. */
const MAX_DNS_PARAM = maxBase64UrlLength(MAX_MESSAGE)

const mediaType = (header: string | null): string =>
  (header ?? '').split(';')[0]?.trim().toLowerCase() ?? ''

function wantsJson(req: Request, params: URLSearchParams): boolean {
  if (params.get('ct')?.toLowerCase() === DNS_JSON) return true
  return (req.headers.get('accept') ?? '').toLowerCase().includes(DNS_JSON)
}

async function get(req: Request, url: URL, env: DohEnv, keepAlive?: KeepAlive): Promise<Response> {
  const params = url.searchParams
  const dns = params.get('dns')
  if (dns !== null) {
    if (dns.length > MAX_DNS_PARAM) return wireError(413, 'DNS message too large')
    const bytes = decodeBase64Url(dns)
    if (!bytes) return wireError(400, 'dns parameter is not base64url')
    if (bytes.length > MAX_MESSAGE) return wireError(413, 'DNS message too large')
    return wireBytes(bytes, env, keepAlive)
  }
  if (params.has('name') || wantsJson(req, params))
    return jsonQuery(params, zoneView(env), keepAlive)
  return wireError(400, 'missing dns parameter')
}

async function post(req: Request, env: DohEnv, keepAlive?: KeepAlive): Promise<Response> {
  if (mediaType(req.headers.get('content-type')) !== DNS_MESSAGE) {
    return wireError(415, `content type must be ${DNS_MESSAGE}`)
  }
  const bytes = await readLimited(req, MAX_MESSAGE)
  if (!bytes) return wireError(413, 'DNS message too large')
  return wireBytes(bytes, env, keepAlive)
}

async function wireBytes(
  bytes: Uint8Array,
  env: DohEnv,
  keepAlive?: KeepAlive,
  key?: string
): Promise<Response> {
  try {
    return await wireQuery(
      bytes,
      zoneView(env),
      answerCache(env),
      keepAlive,
      answerSigner(env),
      key
    )
  } catch (err) {
    logFailure('wire query', err)
    return wireServfail(bytes)
  }
}

async function route(req: Request, env: DohEnv, keepAlive?: KeepAlive): Promise<Response> {
  noteLocation(req.cf as { continent?: unknown; longitude?: unknown } | undefined)
  // The form DoH clients send, without parsing the URL; anything else takes the general path.
  if (req.method === 'GET' || req.method === 'HEAD') {
    const plain = plainDnsQuery(req.url, MAX_MESSAGE)
    if (plain) return wireBytes(plain.bytes, env, keepAlive, plain.key)
  }
  const url = new URL(req.url)
  if (url.pathname !== '/dns-query') {
    if (url.pathname === '/stats' && env.DOH_STATS === '1') {
      const answers = answerCache(env)
      return Response.json({
        ...zoneView(env).snapshot(),
        answerHits: answers?.hits ?? 0,
        answerMisses: answers?.misses ?? 0,
        answers: answers?.size ?? 0,
        answerBytes: answers?.bytes ?? 0,
        ...signatureStats(),
      })
    }
    return wireError(404, 'not found')
  }
  switch (req.method) {
    case 'GET':
    case 'HEAD':
      return get(req, url, env, keepAlive)
    case 'POST':
      return post(req, env, keepAlive)
    case 'OPTIONS':
      return preflight()
    default:
      return methodNotAllowed()
  }
}

export default {
  async fetch(req, env, ctx) {
    // Background confirmations of a zone outlive the request that started them (waitUntil).
    const keepAlive: KeepAlive | undefined = ctx ? (p) => ctx.waitUntil(p) : undefined
    try {
      // Strict mode (tests) counts KV operations per invocation; production has no counter to scope.
      return await (strictBindingsOn(env)
        ? inInvocation(() => route(req, strictDohEnv(env), keepAlive))
        : route(req, env, keepAlive))
    } catch (err) {
      // Never a 5xx: whatever escaped is answered as SERVFAIL.
      logFailure('fetch', err)
      return wireServfail(undefined)
    }
  },
} satisfies ExportedHandler<DohEnv>
