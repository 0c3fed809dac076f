/**
 * @module The form in which a zone view holds a zone's head: decoded, with what many zones have in
 * common held once. A platform's zones mostly share their name servers, SOA timers and contact,
 * proxy addresses and apex records, and most heads carry no overlay and no changed bucket
 * versions; a view holding a hundred thousand small zones would otherwise keep a copy of each per
 * zone. Shared parts are read-only for everyone (readers never modify a zone's metadata).
 */
import type { BucketVersions, NodeData, ZoneHead, ZoneMeta } from './types.ts'

const EMPTY_OVERLAY: ReadonlyMap<string, NodeData | null> = new Map()
const EMPTY_VERSIONS: ReadonlyMap<number, number> = new Map()
const NO_CHANGES: readonly [number, number[] | 'all'][] = []

/** Distinct shared parts kept before the pool starts again (parts already shared stay shared). */
const POOL_MAX = 4096

/** Bytes counted per overlay name (its node decoded). */
const OVERLAY_NAME_BYTES = 128

/** A head as held, with the bytes it holds that no other held head shares. */
export interface HeldHead {
  head: ZoneHead
  /**
   * Estimated bytes beyond a held zone's fixed part (`HELD_ZONE_BYTES`): metadata parts no other
   * zone shared when it was taken, the overlay, subzones and DNSSEC keys.
   */
  bytes: number
}

/**
 * Bytes of a held zone whose metadata parts are all shared: its entry (which is also its head),
 * its metadata object, its id and the map slot, rounded up from what
 * `bench/tools/held-zone-bytes.mjs` measures with the view's map of zones at its emptiest just
 * after it grows (a charge below the real heap would let the isolate outgrow its memory).
 */
export const HELD_ZONE_BYTES = 400

export class HeldHeads {
  readonly #pool = new Map<string, unknown>()
  /** Bucket versions with every bucket at one version, one object per version. */
  readonly #versionsAt = new Map<number, BucketVersions>()
  /** Bytes of parts taken by the head being held that the pool did not share. */
  #unshared = 0

  /** `head` as the view keeps it: shared empties and shared metadata parts; `name` is the held key. */
  hold(head: ZoneHead, name: string): HeldHead {
    this.#unshared = 0
    const meta = this.#meta(head.meta, name)
    // Every property in the literal (none added after): an object grown later takes more room.
    const held: ZoneHead = {
      n: head.n,
      seq: head.seq,
      meta,
      overlay:
        head.overlay.size === 0 ? (EMPTY_OVERLAY as Map<string, NodeData | null>) : head.overlay,
      // Only an incoming head's changes are read (against the held one): the held one needs none.
      changed: NO_CHANGES as ZoneHead['changed'],
      bv: head.bv && this.#versions(head.bv),
    }
    let bytes = this.#unshared + held.overlay.size * OVERLAY_NAME_BYTES
    if (held.bv) bytes += held.bv.changed.size * 32
    if (meta.subzones) bytes += JSON.stringify(meta.subzones).length * 2
    if (meta.dnssec) bytes += JSON.stringify(meta.dnssec).length * 2
    return { head: held, bytes }
  }

  #versions(bv: BucketVersions): BucketVersions {
    if (bv.changed.size !== 0) return bv
    let shared = this.#versionsAt.get(bv.base)
    if (!shared) {
      if (this.#versionsAt.size >= POOL_MAX) this.#versionsAt.clear()
      shared = { base: bv.base, changed: EMPTY_VERSIONS as Map<number, number> }
      this.#versionsAt.set(bv.base, shared)
    }
    return shared
  }

  #meta(meta: ZoneMeta, name: string): ZoneMeta {
    const v = meta.v
    const id = meta.id
    const named = meta.name === name ? name : meta.name
    const serial = meta.serial
    const soa = this.#shared(meta.soa)
    const ns = this.#shared(meta.ns)
    const proxy = this.#shared(meta.proxy)
    const apex = this.#shared(meta.apex)
    const layout = meta.layout && this.#shared(meta.layout)
    const { subzones, dnssec, expired } = meta
    // Most zones have no subzones, no DNSSEC and have not expired: their metadata holds no slot
    // for any of them.
    if (subzones === undefined && dnssec === undefined && !expired)
      return { v, id, name: named, serial, soa, ns, proxy, apex, layout }
    return expired
      ? { v, id, name: named, serial, soa, ns, proxy, apex, layout, subzones, dnssec, expired }
      : { v, id, name: named, serial, soa, ns, proxy, apex, layout, subzones, dnssec }
  }

  #shared<T>(value: T): T {
    const key = JSON.stringify(value)
    const found = this.#pool.get(key)
    if (found !== undefined) return found as T
    // Decoded: about twice its JSON (objects, two-byte headers, the pool's key).
    this.#unshared += key.length * 2
    if (this.#pool.size >= POOL_MAX) this.#pool.clear()
    this.#pool.set(key, value)
    return value
  }
}
