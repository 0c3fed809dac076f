/**
 * @module Value shapes of the KV layout contract, version 1, and the zone view the resolver reads.
 */

export const KV_LAYOUT_VERSION = 1

/** One RRset: a TTL and RFC presentation rdata strings (absolute names end with a dot). */
export interface RRSetData {
  ttl: number
  rdata: string[]
  /** Only on A/AAAA/CNAME sets whose records are proxied. */
  proxied?: true
}

/** The value of `n:<zone>:<name>`: every RRset at one owner name, keyed by type mnemonic. */
export interface NodeData {
  v: 1
  sets: Record<string, RRSetData>
}

export interface SoaData {
  /** Primary name server, lowercase FQDN without trailing dot. */
  mname: string
  /** Responsible mailbox in domain-name form, lowercase FQDN without trailing dot. */
  rname: string
  refresh: number
  retry: number
  expire: number
  minimum: number
  /** TTL of the SOA record itself. */
  ttl: number
}

/** The value of `z:<zone>`: zone metadata plus the apex node, so the apex costs no extra read. */
export interface ZoneMeta {
  v: 1
  id: string
  /** Lowercase FQDN without trailing dot. */
  name: string
  serial: number
  soa: SoaData
  /** Assigned name servers, lowercase FQDN without trailing dot. */
  ns: string[]
  /** Addresses that proxied A/AAAA/CNAME names answer with. */
  proxy: { ipv4: string[]; ipv6: string[] }
  apex: NodeData
  /**
   * The zone's names live in `buckets` hash buckets (`b:<zone>:<buckets>:<i>`).
   */
  layout?: ZoneLayout
  /**
   * Hosted zones strictly below this one (other zones, any account). A reader that knows this
   * zone needs no lookup for longer suffixes of a name unless one of them is listed here.
   */
  subzones?: string[]
  /** DNSSEC signing keys, present while the zone is signed (`@edgedns/dnssec`). */
  dnssec?: ZoneDnssec
  /**
   * A secondary zone whose primary has not answered for its SOA expire interval (RFC 1035
   * §4.3.5): every question in it is answered SERVFAIL until a transfer check succeeds again.
   */
  expired?: true
}

/** One combined signing key of a zone: public key and the private key sealed with the worker secret. */
export interface DnssecKeyData {
  /** RFC 4034 key tag. */
  tag: number
  /** DNSKEY public key field (base64, ECDSA P-256 X ‖ Y). */
  publicKey: string
  /** The private key, encrypted (never plain text in KV). */
  sealed: string
}

export interface ZoneDnssec {
  /** Published as DNSKEY at the apex, each signing every answer (two during a key rollover). */
  keys: DnssecKeyData[]
  /** Unix seconds after which answers are no longer signed (a disable waiting out cached DS). */
  until?: number
}

/** Where a zone's names live: `buckets` hash buckets, plus the count being retired, if any. */
export interface ZoneLayout {
  buckets: number
  /** The previous bucket count, still readable until it is retired (a reader's fallback). */
  prev?: number
}

/**
 * The value of a head slot `h:<zone>:<slot>` (written round robin, one slot per build pass):
 * the zone's current metadata, the names changed but not yet flushed into their buckets, and
 * which buckets recent passes rewrote. Readers revalidate through it.
 */
export interface ZoneHead {
  /** Write counter: head n lives in slot n mod HEAD_SLOTS. */
  n: number
  /** Change-log sequence built when it was written. */
  seq: number
  meta: ZoneMeta
  /** Overlay: name → node, or null for a name that no longer exists. Shadows the buckets. */
  overlay: Map<string, NodeData | null>
  /** [head counter, bucket indexes rewritten since the previous head, or 'all'] for recent heads. */
  changed: [number, number[] | 'all'][]
  /** The overlay lives in this key instead (a large pass); readers fetch it once per head. */
  overlayKey?: string
  /** Which version of each bucket to read (layout format 4); absent: unversioned bucket keys. */
  bv?: BucketVersions
  /**
   * The versions table `bv` completes (a long list of versions, written once): until a reader has
   * merged it in (`withVersionsTable`), `bv` lists only the versions changed since the table.
   */
  versionsKey?: string
}

/**
 * Which version of each bucket a head's readers read: `base` for every bucket not listed in
 * `changed` (the full build that wrote them all), the listed version otherwise. A version is the
 * counter of the first head that names it, so a bucket key is written once and never rewritten.
 */
export interface BucketVersions {
  base: number
  changed: Map<number, number>
}

/** What a zone view returns for one name: its zone and the nodes that exist around it. */
export interface ZoneLookup {
  zone: ZoneMeta
  /**
   * Identifies the zone data the answer came from: it changes whenever the reader takes newer data
   * for the zone. Readers that cannot tell leave it out (their answers are never reused).
   */
  stamp?: number
  /**
   * Whichever of the name itself, its ancestors strictly below the apex, and the wildcard names
   * `*.<ancestor>` (parent up to the apex) exist; keyed by lowercase name without trailing dot.
   */
  nodes: Map<string, NodeData>
}

export interface LookupOptions {
  /**
   * Only consider zones equal to this name or above it (its suffixes). Used to read the parent
   * side of a cut (DS at a nested zone's apex) and glue from a specific zone.
   */
  within?: string
  /**
   * Keeps the current request alive for a promise (Workers' `ctx.waitUntil`). With it, a zone
   * confirmed more than half `revalidateMs` ago is confirmed again in the background while the
   * query is answered, so under steady load no query waits for KV.
   */
  keepAlive?: (promise: Promise<unknown>) => void
}

/** Read access to hosted zones; `null` means no hosted zone contains the name. */
export interface ZoneView {
  lookup(qname: string, options?: LookupOptions): Promise<ZoneLookup | null>
}
