/**
 * @module HTTP responses of /dns-query: DNS messages, JSON bodies, errors, CORS headers.
 */

export const DNS_MESSAGE = 'application/dns-message'
export const DNS_JSON = 'application/dns-json'
const ALLOWED_METHODS = 'GET, HEAD, POST, OPTIONS'

/** Every /dns-query response may be read by any origin (public data, no credentials). */
const CORS = { 'access-control-allow-origin': '*' }

/** A DNS answer (wire or JSON) in HTTP 200, with its Cache-Control value. */
export function answerResponse(
  body: BodyInit,
  contentType: string,
  cacheControl: string
): Response {
  return new Response(body, {
    status: 200,
    headers: { ...CORS, 'content-type': contentType, 'cache-control': cacheControl },
  })
}

/** An HTTP-level error for a wire request: short plain text. */
export function wireError(
  status: number,
  message: string,
  extra: Record<string, string> = {}
): Response {
  return new Response(`${message}\n`, {
    status,
    headers: {
      ...CORS,
      'content-type': 'text/plain; charset=utf-8',
      'cache-control': 'no-store',
      ...extra,
    },
  })
}

/** An HTTP-level error for a JSON API request: `{"error": "..."}`. */
export function jsonError(status: number, message: string): Response {
  return new Response(JSON.stringify({ error: message }), {
    status,
    headers: { ...CORS, 'content-type': DNS_JSON, 'cache-control': 'no-store' },
  })
}

export function methodNotAllowed(): Response {
  return wireError(405, 'method not allowed', { allow: ALLOWED_METHODS })
}

/** CORS preflight: any origin, our methods, the headers DoH clients send. */
export function preflight(): Response {
  return new Response(null, {
    status: 204,
    headers: {
      ...CORS,
      allow: ALLOWED_METHODS,
      'access-control-allow-methods': ALLOWED_METHODS,
      'access-control-allow-headers': 'accept, content-type',
      'access-control-max-age': '86400',
    },
  })
}
