/**
 * @module Finding the name servers a zone is delegated to, from the parent zone's own name servers
 * rather than through a recursive resolver (which would ask the delegated servers themselves, and
 * those may not answer for the zone yet). Steps, with the I/O injected:
 *   1. the closest enclosing zone of the zone's parent name: `SOA` of that name through a resolver;
 *   2. that zone's name servers: `NS` of its apex through the resolver;
 *   3. `<zone> NS` with RD=0 to those servers, one at a time, until one gives a usable answer: the
 *      referral's NS set, or that there is no delegation. A referral to a cut between the parent and
 *      the zone continues with that cut's servers.
 * Bounded: at most `maxExchanges` server queries, and nothing is started after `deadline`.
 */
import { TYPE_CODES } from '@edgedns/dns-facts'
import { parentName, shown } from './names.ts'
import { enclosingZone, nameServersOf, type ResolverAnswer } from './parent.ts'
import { delegationQuery, readParentAnswer } from './referral.ts'

export interface DelegationIo {
  /** A question to a recursive resolver; throws (any Error) when it gives no answer. */
  resolve(name: string, type: number): Promise<ResolverAnswer>
  /**
   * One DNS message exchanged with `server` (a host name) over TCP port 53, within `timeoutMs`;
   * throws (any Error) when there is no answer.
   */
  exchange(server: string, query: Uint8Array, timeoutMs: number): Promise<Uint8Array>
  /** A fresh message id (random in production). */
  id(): number
  /** The clock, in ms (Date.now in production). */
  now(): number
}

export interface DelegationLimits {
  /** Server queries at most (step 3). */
  maxExchanges: number
  /** Time for one server query. */
  exchangeTimeoutMs: number
  /** Nothing is asked once `now()` has passed this. */
  deadline: number
}

export const DEFAULT_MAX_EXCHANGES = 4
export const DEFAULT_EXCHANGE_TIMEOUT_MS = 3000

export interface Delegation {
  /** Lookup-form NS targets; empty when the parent has no delegation for the zone. */
  nameServers: string[]
  /** The zone whose server answered (the parent, or a closer cut). */
  parent: string
  /** The server that answered. */
  server: string
  /** Why the delegation is empty, when it is. */
  reason?: string
}

/** The lookup gave no answer; `message` says what was tried. */
export class DelegationError extends Error {
  override name = 'DelegationError'
}

const errorText = (e: unknown): string => (e instanceof Error ? e.message : String(e))

export async function findDelegation(
  zone: string,
  io: DelegationIo,
  limits: DelegationLimits
): Promise<Delegation> {
  const above = parentName(zone)
  let soa: ResolverAnswer
  try {
    soa = await io.resolve(above || '.', TYPE_CODES.SOA)
  } catch (e) {
    throw new DelegationError(`the zone above ${zone} could not be found (${errorText(e)})`)
  }
  let parent = enclosingZone(above, soa)
  if (parent === null)
    throw new DelegationError(
      `the resolver named no zone above ${zone} (no SOA for ${shown(above)})`
    )
  let servers: string[]
  try {
    servers = nameServersOf(parent, await io.resolve(parent || '.', TYPE_CODES.NS))
  } catch (e) {
    throw new DelegationError(
      `the name servers of ${shown(parent)} could not be looked up (${errorText(e)})`
    )
  }
  if (servers.length === 0)
    throw new DelegationError(`the resolver gave no name servers for ${shown(parent)}`)

  const problems: string[] = []
  let exchanges = 0
  let queue = [...servers]
  while (queue.length > 0) {
    if (exchanges >= limits.maxExchanges) {
      problems.push(`stopped after ${exchanges} queries`)
      break
    }
    const left = limits.deadline - io.now()
    if (left <= 0) {
      problems.push('out of time')
      break
    }
    const server = queue.shift()!
    const id = io.id() & 0xffff
    exchanges++
    let reply: Uint8Array
    try {
      reply = await io.exchange(
        server,
        delegationQuery(zone, id),
        Math.min(limits.exchangeTimeoutMs, left)
      )
    } catch (e) {
      problems.push(`${server}: ${errorText(e)}`)
      continue
    }
    const answer = readParentAnswer(zone, parent, id, reply)
    switch (answer.kind) {
      case 'delegated':
        return { nameServers: answer.nameServers, parent, server }
      case 'not-delegated':
        return { nameServers: [], parent, server, reason: answer.reason }
      case 'closer':
        parent = answer.zone
        queue = [...answer.nameServers]
        continue
      case 'unusable':
        problems.push(`${server}: ${answer.reason}`)
    }
  }
  throw new DelegationError(
    `no name server of ${shown(parent)} answered for the delegation of ${zone} (${problems.join('; ')})`
  )
}
