/**
 * @module The JSON API (`application/dns-json`, GET `?name=&type=&do=&cd=`), Google/Cloudflare
 * schema. `ct` and `edns_client_subnet` are accepted and ignored.
 */
import { keptAlive, type KeepAlive } from './answer-cache.ts'
import { CLASSES, fqdn } from '@edgedns/dns-facts'
import { RdataError, encodeResponse, toJsonResponse, typeFromName } from '@edgedns/dns-wire'
import type { ZoneView } from '@edgedns/kv-layout'
import type { Resolution } from '@edgedns/resolver'
import { SERVFAIL, answer, logFailure } from './answer.ts'
import { NO_STORE, cacheControl } from './cache-control.ts'
import { DNS_JSON, answerResponse, jsonError } from './http.ts'

const FLAG_VALUES: Record<string, boolean> = {
  '': false,
  '0': false,
  false: false,
  '1': true,
  true: true,
}

/** `do` / `cd`: empty, 0, false, 1 or true; anything else is Cloudflare's 400 error text. */
function flag(params: URLSearchParams, key: 'do' | 'cd'): boolean | string {
  const raw = params.get(key)
  if (raw === null) return false
  if (Object.hasOwn(FLAG_VALUES, raw)) return FLAG_VALUES[raw] as boolean
  const flagName = key.toUpperCase()
  return (
    `Invalid ${flagName} flag \`${raw}\`. ` +
    'Expected to be empty or one of `0`, `false`, `1`, or `true`.'
  )
}

/** True when the question encodes on the wire (labels ≤ 63, name ≤ 255 octets, none empty). */
function encodable(name: string, type: number): boolean {
  try {
    encodeResponse({ id: 0, rcode: 0, question: { name, type, class: 1 } })
    return true
  } catch (err) {
    if (err instanceof RdataError) return false
    throw err
  }
}

/** The result, or SERVFAIL when stored rdata would not encode (JSON and wire answer alike). */
function checked(name: string, type: number, result: Resolution): Resolution {
  try {
    encodeResponse({ id: 0, question: { name, type, class: 1 }, ...result, maxSize: 65535 })
    return result
  } catch (err) {
    logFailure(`encode ${name}/${type}`, err)
    return SERVFAIL
  }
}

/** A JSON query; an unexpected exception is answered as SERVFAIL (Status 2), never a 5xx. */
export async function jsonQuery(
  params: URLSearchParams,
  view: ZoneView,
  keepAlive?: KeepAlive
): Promise<Response> {
  try {
    return await jsonAnswer(params, keptAlive(view, keepAlive))
  } catch (err) {
    logFailure('json query', err)
    const name = params.get('name') ?? ''
    const type = typeFromName(params.get('type') || 'A') ?? 1
    const body = toJsonResponse({ name, type }, SERVFAIL)
    return answerResponse(JSON.stringify(body), DNS_JSON, NO_STORE)
  }
}

async function jsonAnswer(params: URLSearchParams, view: ZoneView): Promise<Response> {
  const name = params.get('name')?.trim() ?? ''
  if (name === '') return jsonError(400, 'Missing required parameter `name`.')
  const typeText = params.get('type') ?? 'A'
  const type = typeFromName(typeText === '' ? 'A' : typeText)
  if (type === undefined) return jsonError(400, `Invalid type \`${typeText}\`.`)
  const dnssecOk = flag(params, 'do')
  if (typeof dnssecOk === 'string') return jsonError(400, dnssecOk)
  const cd = flag(params, 'cd')
  if (typeof cd === 'string') return jsonError(400, cd)
  if (!encodable(name, type)) return jsonError(400, `Invalid name \`${name}\`.`)

  const result = checked(
    name,
    type,
    await answer(view, { name, type, class: CLASSES.IN, dnssecOk })
  )
  const body = toJsonResponse({ name, type, rd: true, cd }, result)
  // Like the wire format, owners equal to the question take the question's spelling.
  const asked = fqdn(name)
  for (const rr of [...(body.Answer ?? []), ...(body.Authority ?? [])]) {
    if (rr.name.toLowerCase() === asked.toLowerCase()) rr.name = asked
  }
  return answerResponse(JSON.stringify(body), DNS_JSON, cacheControl(result))
}
