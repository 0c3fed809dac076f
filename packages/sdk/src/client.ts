/**
 * @module EdgeDns: the client, one object per server and token.
 */
import type { DnsMessage, QueryOptions } from './doh/message.ts'
import { resolveOver } from './doh/resolve.ts'
import { type ClientOptions, Transport } from './http.ts'
import { PropagationApi, type WaitOptions } from './propagation.ts'
import { Records } from './records.ts'
import { Tokens } from './tokens.ts'
import { Transfers } from './transfers.ts'
import type { Propagation } from './types.ts'
import { Accounts, Zones } from './zones.ts'

export class EdgeDns {
  readonly zones: Zones
  readonly records: Records
  readonly tokens: Tokens
  readonly accounts: Accounts
  /** Zone transfers (secondary DNS): keys, peers, ACLs, catalog; a zone's incoming and outgoing. */
  readonly transfers: Transfers
  readonly propagation: PropagationApi
  private readonly transport: Transport

  constructor(opts: ClientOptions) {
    this.transport = new Transport(opts)
    this.zones = new Zones(this.transport)
    this.records = new Records(this.transport)
    this.tokens = new Tokens(this.transport)
    this.accounts = new Accounts(this.transport)
    this.transfers = new Transfers(this.transport)
    this.propagation = new PropagationApi(this.transport)
  }

  /** Change sequence of the last write this client made (from `x-edgedns-change-seq`). */
  get lastChangeSeq(): number | undefined {
    return this.transport.lastChangeSeq
  }

  /** Waits until the zone's builder has published change `seq` (default: this client's last write). */
  waitForPropagation(zoneId: string, seq?: number, opts?: WaitOptions): Promise<Propagation> {
    return this.propagation.wait(zoneId, seq, opts)
  }

  /** Queries the DoH endpoint in RFC 8484 wire format (POST) and decodes the answer. */
  resolve(name: string, type: string | number = 'A', opts?: QueryOptions): Promise<DnsMessage> {
    return resolveOver(this.transport.fetch, this.transport.dohUrl, name, type, opts)
  }
}
