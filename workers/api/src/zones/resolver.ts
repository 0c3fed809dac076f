/**
 * @module What the public DNS says about a name, for zone ownership checks: the TXT strings at a
 * name, through a public DNS-over-HTTPS resolver (JSON API, `VERIFICATION_RESOLVER`), and the name
 * servers a name is delegated to, as the parent zone's own name servers say (found through that
 * resolver, then asked over TCP port 53; `@edgedns/delegation`). Tests pass their own
 * `OwnershipResolver` to `createApp`.
 */
import {
  DEFAULT_EXCHANGE_TIMEOUT_MS,
  DEFAULT_MAX_EXCHANGES,
  DelegationError,
  findDelegation,
  type DelegationIo,
  type ResolverAnswer,
} from '@edgedns/delegation'

export interface OwnershipResolver {
  /** The TXT records at `name`, each record's character-strings joined; empty when there are none. */
  txt(name: string): Promise<string[]>
  /**
   * The name servers `name` is delegated to, as its parent zone's servers say (lowercase, no
   * trailing dot); empty when the parent has no delegation for it.
   */
  nameServers(name: string): Promise<string[]>
}

/** A lookup that did not give an answer (unreachable resolver or servers, SERVFAIL, a malformed reply). */
declare module '../http/app-env.ts' {
  interface AppVariables {
    /** Looks up zone ownership proofs in the public DNS (`PUT /zones/{id}/activation_check`). */
    ownershipResolver: OwnershipResolver
  }
}

export class ResolverError extends Error {
  override name = 'ResolverError'
}

/** Cloudflare's public resolver; any DoH server with the JSON API works (`VERIFICATION_RESOLVER`). */
export const DEFAULT_RESOLVER = 'https://cloudflare-dns.com/dns-query'

/** Time for one resolver question. */
const TIMEOUT_MS = 5000
/** Time for a whole delegation lookup (resolver questions and parent servers). */
const DELEGATION_BUDGET_MS = 10_000
const RCODE_NOERROR = 0
const RCODE_NXDOMAIN = 3
const TYPE_TXT = 16
const TYPE_NAMES: Record<number, string> = { 2: 'NS', 6: 'SOA', 16: 'TXT' }

interface JsonRecord {
  name: string
  type: number
  data: string
}

interface JsonMessage {
  Status: number
  Answer?: JsonRecord[]
  Authority?: JsonRecord[]
}

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

export type Exchange = DelegationIo['exchange']

const records = (list: unknown): JsonRecord[] => (Array.isArray(list) ? list : [])

/**
 * The resolver: `endpoint` for resolver questions, `exchange` for the parent's servers (the
 * Worker's `tcpExchange()`, tcp-exchange.ts, which only a Worker can load).
 */
export function dohResolver(
  endpoint: string = DEFAULT_RESOLVER,
  fetcher: typeof fetch = fetch,
  exchange: Exchange
): OwnershipResolver {
  async function query(
    name: string,
    type: number,
    timeoutMs = TIMEOUT_MS
  ): Promise<ResolverAnswer> {
    const url = new URL(endpoint)
    url.searchParams.set('name', name)
    url.searchParams.set('type', TYPE_NAMES[type] ?? String(type))
    let message: JsonMessage
    try {
      const res = await fetcher(url, {
        headers: { accept: 'application/dns-json' },
        signal: AbortSignal.timeout(Math.max(1, timeoutMs)),
      })
      if (!res.ok) throw new ResolverError(`${url.host} answered HTTP ${res.status}`)
      message = (await res.json()) as JsonMessage
    } catch (e) {
      if (e instanceof ResolverError) throw e
      throw new ResolverError(`${url.host} could not be asked: ${(e as Error).message}`)
    }
    if (message.Status !== RCODE_NOERROR && message.Status !== RCODE_NXDOMAIN)
      throw new ResolverError(
        `${url.host} answered rcode ${message.Status} for ${name} ${TYPE_NAMES[type] ?? type}`
      )
    return { answer: records(message.Answer), authority: records(message.Authority) }
  }
  return {
    async txt(name) {
      return (await query(name, TYPE_TXT)).answer
        .filter((a) => a.type === TYPE_TXT)
        .map((a) => txtData(a.data))
    },
    async nameServers(name) {
      const deadline = Date.now() + DELEGATION_BUDGET_MS
      try {
        const found = await findDelegation(
          name,
          {
            resolve: (n, type) => query(n, type, Math.min(TIMEOUT_MS, deadline - Date.now())),
            exchange,
            id: () => crypto.getRandomValues(new Uint16Array(1))[0]!,
            now: Date.now,
          },
          {
            maxExchanges: DEFAULT_MAX_EXCHANGES,
            exchangeTimeoutMs: DEFAULT_EXCHANGE_TIMEOUT_MS,
            deadline,
          }
        )
        return found.nameServers
      } catch (e) {
        if (e instanceof DelegationError) throw new ResolverError(e.message)
        throw e
      }
    },
  }
}
