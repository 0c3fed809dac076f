/**
 * @module What the public DNS says about a name, for zone ownership checks: the TXT strings at a
 * name and the name servers a name is delegated to. Production asks a public DNS-over-HTTPS
 * resolver (JSON API, `VERIFICATION_RESOLVER`); tests pass their own `OwnershipResolver` to
 * `createApp`.
 */

export interface OwnershipResolver {
  /** The TXT records at `name`, each record's character-strings joined; empty when there are none. */
  txt(name: string): Promise<string[]>
  /** The name servers `name` is delegated to (lowercase, no trailing dot); empty when none. */
  nameServers(name: string): Promise<string[]>
}

/** A lookup that did not give an answer (unreachable resolver, SERVFAIL, a malformed reply). */
export class ResolverError extends Error {
  override name = 'ResolverError'
}

/** Cloudflare's public resolver; any DoH server with the JSON API works (`VERIFICATION_RESOLVER`). */
export const DEFAULT_RESOLVER = 'https://cloudflare-dns.com/dns-query'

const TIMEOUT_MS = 5000
const RCODE_NOERROR = 0
const RCODE_NXDOMAIN = 3
const TYPE_NS = 2
const TYPE_TXT = 16

interface JsonAnswer {
  name: string
  type: number
  data: string
}

interface JsonMessage {
  Status: number
  Answer?: JsonAnswer[]
}

const bare = (name: string): string => name.toLowerCase().replace(/\.$/, '')

/**
 * One TXT record's data as DoH JSON servers write it: quoted character-strings (`"a" "b"`, with
 * `\"` and `\\` escapes) joined, or the text as is when it is not quoted.
 */
export function txtData(data: string): string {
  const strings = [...data.matchAll(/"((?:[^"\\]|\\.)*)"/g)].map((m) =>
    m[1]!.replace(/\\(.)/g, '$1')
  )
  return strings.length > 0 ? strings.join('') : data
}

export function dohResolver(
  endpoint: string = DEFAULT_RESOLVER,
  fetcher: typeof fetch = fetch
): OwnershipResolver {
  async function query(name: string, type: 'TXT' | 'NS'): Promise<JsonAnswer[]> {
    const url = new URL(endpoint)
    url.searchParams.set('name', name)
    url.searchParams.set('type', type)
    let message: JsonMessage
    try {
      const res = await fetcher(url, {
        headers: { accept: 'application/dns-json' },
        signal: AbortSignal.timeout(TIMEOUT_MS),
      })
      if (!res.ok) throw new ResolverError(`${url.host} answered HTTP ${res.status}`)
      message = (await res.json()) as JsonMessage
    } catch (e) {
      if (e instanceof ResolverError) throw e
      throw new ResolverError(`${url.host} could not be asked: ${(e as Error).message}`)
    }
    if (message.Status === RCODE_NXDOMAIN) return []
    if (message.Status !== RCODE_NOERROR)
      throw new ResolverError(`${url.host} answered rcode ${message.Status} for ${name} ${type}`)
    return Array.isArray(message.Answer) ? message.Answer : []
  }
  return {
    async txt(name) {
      return (await query(name, 'TXT'))
        .filter((a) => a.type === TYPE_TXT)
        .map((a) => txtData(a.data))
    },
    async nameServers(name) {
      return (await query(name, 'NS'))
        .filter((a) => a.type === TYPE_NS && bare(a.name) === bare(name))
        .map((a) => bare(a.data))
    },
  }
}
