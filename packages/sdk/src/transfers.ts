/**
 * @module Zone transfers (secondary DNS): an account's TSIG keys, peers, transfer ACLs and catalog
 * zone, and a zone's incoming transfers (a secondary zone's primaries) or outgoing ones (a primary
 * zone's secondaries), with `forceAxfr` and `forceNotify`. Cloudflare's `secondary_dns` routes,
 * plus the catalog zone (RFC 9432), which is this API's own.
 */
import type { Transport } from './http.ts'
import type {
  CatalogZone,
  CatalogZoneInput,
  IncomingTransfers,
  IncomingTransfersInput,
  OutgoingTransfers,
  OutgoingTransfersInput,
  Peer,
  PeerInput,
  TransferAcl,
  TransferAclInput,
  TsigKey,
  TsigKeyInput,
} from './types.ts'

/** One of an account's lists under /accounts/{id}/secondary_dns (all items in one answer). */
export class AccountList<Item, Input> {
  private readonly t: Transport
  private readonly name: 'tsigs' | 'peers' | 'acls'

  constructor(t: Transport, name: 'tsigs' | 'peers' | 'acls') {
    this.t = t
    this.name = name
  }

  private path(accountId: string, id?: string): string {
    const base = `/accounts/${accountId}/secondary_dns/${this.name}`
    return id === undefined ? base : `${base}/${id}`
  }

  list(accountId: string): Promise<Item[]> {
    return this.t.result({ method: 'GET', path: this.path(accountId) })
  }

  get(accountId: string, id: string): Promise<Item> {
    return this.t.result({ method: 'GET', path: this.path(accountId, id) })
  }

  create(accountId: string, input: Input): Promise<Item> {
    return this.t.result({ method: 'POST', path: this.path(accountId), json: input })
  }

  /** Replaces the item (PUT): fields left out are cleared. */
  update(accountId: string, id: string, input: Input): Promise<Item> {
    return this.t.result({ method: 'PUT', path: this.path(accountId, id), json: input })
  }

  /** Refused (409) while something uses it: a peer using a key, a zone naming a peer. */
  delete(accountId: string, id: string): Promise<{ id: string }> {
    return this.t.result({ method: 'DELETE', path: this.path(accountId, id) })
  }
}

/** A zone's incoming or outgoing settings (at most one of each; 404 until made). */
class ZoneSettings<Settings, Input> {
  protected readonly t: Transport
  private readonly direction: 'incoming' | 'outgoing'

  constructor(t: Transport, direction: 'incoming' | 'outgoing') {
    this.t = t
    this.direction = direction
  }

  protected path(zoneId: string, action?: string): string {
    const base = `/zones/${zoneId}/secondary_dns/${this.direction}`
    return action === undefined ? base : `${base}/${action}`
  }

  get(zoneId: string): Promise<Settings> {
    return this.t.result({ method: 'GET', path: this.path(zoneId) })
  }

  create(zoneId: string, input: Input): Promise<Settings> {
    return this.t.result({ method: 'POST', path: this.path(zoneId), json: input })
  }

  update(zoneId: string, input: Input): Promise<Settings> {
    return this.t.result({ method: 'PUT', path: this.path(zoneId), json: input })
  }

  delete(zoneId: string): Promise<{ id: string }> {
    return this.t.result({ method: 'DELETE', path: this.path(zoneId) })
  }
}

/** A secondary zone's primaries and refresh; its `get` also says how its checks stand. */
export class IncomingSettings extends ZoneSettings<IncomingTransfers, IncomingTransfersInput> {
  /** Pulls the zone by AXFR now; resolves once committed, throws (502) naming the failure. */
  async forceAxfr(zoneId: string): Promise<void> {
    await this.t.result({ method: 'POST', path: `/zones/${zoneId}/secondary_dns/force_axfr` })
  }
}

/** A primary zone's secondaries; made disabled, transferred and notified once enabled. */
export class OutgoingSettings extends ZoneSettings<OutgoingTransfers, OutgoingTransfersInput> {
  async enable(zoneId: string): Promise<'Enabled'> {
    return this.t.result({ method: 'POST', path: this.path(zoneId, 'enable') })
  }

  async disable(zoneId: string): Promise<'Disabled'> {
    return this.t.result({ method: 'POST', path: this.path(zoneId, 'disable') })
  }

  /** `Disabled` also for a zone without outgoing settings. */
  status(zoneId: string): Promise<'Enabled' | 'Disabled'> {
    return this.t.result({ method: 'GET', path: this.path(zoneId, 'status') })
  }

  /** Sends the zone's secondaries a NOTIFY now (400 unless outgoing transfers are enabled). */
  async forceNotify(zoneId: string): Promise<void> {
    await this.t.result({ method: 'POST', path: this.path(zoneId, 'force_notify') })
  }
}

/** The account's catalog zone (one at most; 404, code 10210, until made). */
export class CatalogSettings {
  private readonly t: Transport

  constructor(t: Transport) {
    this.t = t
  }

  private path(accountId: string): string {
    return `/accounts/${accountId}/secondary_dns/catalog`
  }

  get(accountId: string): Promise<CatalogZone> {
    return this.t.result({ method: 'GET', path: this.path(accountId) })
  }

  /** Makes the catalog or replaces it. */
  put(accountId: string, input: CatalogZoneInput): Promise<CatalogZone> {
    return this.t.result({ method: 'PUT', path: this.path(accountId), json: input })
  }

  delete(accountId: string): Promise<{ id: string }> {
    return this.t.result({ method: 'DELETE', path: this.path(accountId) })
  }
}

export class Transfers {
  readonly tsigs: AccountList<TsigKey, TsigKeyInput>
  readonly peers: AccountList<Peer, PeerInput>
  readonly acls: AccountList<TransferAcl, TransferAclInput>
  readonly catalog: CatalogSettings
  readonly incoming: IncomingSettings
  readonly outgoing: OutgoingSettings

  constructor(t: Transport) {
    this.tsigs = new AccountList(t, 'tsigs')
    this.peers = new AccountList(t, 'peers')
    this.acls = new AccountList(t, 'acls')
    this.catalog = new CatalogSettings(t)
    this.incoming = new IncomingSettings(t, 'incoming')
    this.outgoing = new OutgoingSettings(t, 'outgoing')
  }
}
