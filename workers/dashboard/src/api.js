/**
 * @module The dashboard's client of /client/v4. The token lives in memory and sessionStorage
 * (cleared when the tab closes), never in a URL.
 */
const TOKEN_KEY = 'edgedns.token'
const BASE = '/client/v4'

let token = sessionStorage.getItem(TOKEN_KEY) ?? ''

export const session = {
  get token() {
    return token
  },
  set(value) {
    token = value
    sessionStorage.setItem(TOKEN_KEY, value)
  },
  clear() {
    token = ''
    sessionStorage.removeItem(TOKEN_KEY)
  },
}

/** A request the API refused: its HTTP status and the envelope's errors ({code, message, source}). */
class ApiFailure extends Error {
  constructor(status, errors) {
    const first = errors[0] ?? { code: status, message: 'request failed' }
    super(`${first.message} (code ${first.code})`)
    this.status = status
    this.errors = errors
  }

  /** True when the token lacks the permission (the dashboard then turns read-only). */
  get forbidden() {
    return this.status === 403
  }
}

async function envelope(res) {
  const json = await res.json().catch(() => null)
  if (json && json.success) return json
  throw new ApiFailure(
    res.status,
    json?.errors?.length
      ? json.errors
      : [{ code: res.status, message: res.statusText || 'request failed' }]
  )
}

/** Calls the API with the session token; resolves to the envelope, rejects with an ApiFailure. */
export async function api(method, path, body, tokenOverride) {
  const headers = { authorization: `Bearer ${tokenOverride ?? token}` }
  let payload
  if (body instanceof FormData) payload = body
  else if (body !== undefined) {
    headers['content-type'] = 'application/json'
    payload = JSON.stringify(body)
  }
  const res = await fetch(`${BASE}${path}`, { method, headers, body: payload })
  return envelope(res)
}

/** Text answers (zone-file export). */
export async function apiText(path) {
  const res = await fetch(`${BASE}${path}`, { headers: { authorization: `Bearer ${token}` } })
  if (!res.ok) await envelope(res)
  return res.text()
}

/** The dev token when the API runs under local development (`pnpm dev`), else null. */
export async function localDevToken() {
  try {
    const res = await fetch(`${BASE}/local_dev`, { cache: 'no-store' })
    if (!res.ok) return null
    return (await res.json()).result?.dev_token ?? null
  } catch {
    return null
  }
}

/** Every token the session may see, page after page (the API answers at most 50 a page). */
export async function allTokens() {
  const tokens = []
  for (let page = 1; ; page++) {
    const { result, result_info } = await api('GET', `/user/tokens?page=${page}&per_page=50`)
    tokens.push(...result)
    if (result.length === 0 || page >= (result_info?.total_pages ?? 1)) return { result: tokens }
  }
}
