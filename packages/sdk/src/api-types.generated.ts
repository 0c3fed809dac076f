/**
 * @module The API's shapes, generated from its OpenAPI document, which is generated from the zod
 * schemas the API validates requests and describes answers with. Do not edit: after changing
 * those schemas run `pnpm --filter @edgedns/sdk generate` (scripts/sdk-types/api-types.test.ts rewrites this file).
 */
export interface ApiSchemas {
  Record: {
    /** 32 lowercase hex characters */
    id: string
    /** Lowercase FQDN (Punycode) without trailing dot */
    name: string
    type: "A" | "AAAA" | "CAA" | "CERT" | "CNAME" | "DNSKEY" | "DS" | "HTTPS" | "LOC" | "MX" | "NAPTR" | "NS" | "OPENPGPKEY" | "PTR" | "SMIMEA" | "SRV" | "SSHFP" | "SVCB" | "TLSA" | "TXT" | "URI"
    content: string
    proxiable: boolean
    proxied: boolean
    /** 1 = automatic (300 s), else 60..86400 */
    ttl: number
    settings: {
      ipv4_only?: boolean
      ipv6_only?: boolean
      flatten_cname?: boolean
    }
    /** Shadow keys only with include_shadow_metadata=true, each omitted when empty or false: shadowed_by (ids of the NS records delegating the name or a parent), is_glue, dead_glue (glue a shallower delegation keeps from being served), shadowed_records_count (NS below the apex: records at or below its name, at most 10,000) */
    meta: {
      shadowed_by?: string[]
      is_glue?: true
      dead_glue?: true
      shadowed_records_count?: number
      [key: string]: unknown
    }
    comment: string | null
    tags: string[]
    /** RFC 3339 timestamp */
    created_on: string
    /** RFC 3339 timestamp */
    modified_on: string
    /** RFC 3339 timestamp */
    comment_modified_on?: string
    /** RFC 3339 timestamp */
    tags_modified_on?: string
    priority?: number
    /** Structured fields of data-based types (see RecordData.* schemas) */
    data?: {
      [key: string]: unknown
    }
  }
  RecordInput: {
    /** Record type (case-insensitive) */
    type?: "A" | "AAAA" | "CAA" | "CERT" | "CNAME" | "DNSKEY" | "DS" | "HTTPS" | "LOC" | "MX" | "NAPTR" | "NS" | "OPENPGPKEY" | "PTR" | "SMIMEA" | "SRV" | "SSHFP" | "SVCB" | "TLSA" | "TXT" | "URI"
    name?: string
    /** Record content. TXT content is stored and returned as sent: unquoted, it is one text (spaces included) split into 255-octet character-strings on the wire; starting with a double quote, it is RFC 1035 character-strings ("a" "b"). */
    content?: string
    /** Structured fields for CAA, CERT, DNSKEY, DS, HTTPS, LOC, NAPTR, SMIMEA, SRV, SSHFP, SVCB, TLSA, URI; null is the same as leaving it out */
    data?: ApiSchemas["RecordData.CAA"] | ApiSchemas["RecordData.CERT"] | ApiSchemas["RecordData.DNSKEY"] | ApiSchemas["RecordData.DS"] | ApiSchemas["RecordData.HTTPS"] | ApiSchemas["RecordData.LOC"] | ApiSchemas["RecordData.NAPTR"] | ApiSchemas["RecordData.SMIMEA"] | ApiSchemas["RecordData.SRV"] | ApiSchemas["RecordData.SSHFP"] | ApiSchemas["RecordData.SVCB"] | ApiSchemas["RecordData.TLSA"] | ApiSchemas["RecordData.URI"] | null
    ttl?: number
    proxied?: boolean
    priority?: number
    comment?: string | null
    tags?: string[]
    settings?: {
      ipv4_only?: boolean
      ipv6_only?: boolean
      flatten_cname?: boolean
    } | null
    private_routing?: false
  }
  RecordInputWithId: {
    type?: string
    name?: string
    /** Record content. TXT content is stored and returned as sent: unquoted, it is one text (spaces included) split into 255-octet character-strings on the wire; starting with a double quote, it is RFC 1035 character-strings ("a" "b"). */
    content?: string
    data?: {
      [key: string]: unknown
    } | null
    ttl?: number
    proxied?: boolean
    priority?: number
    comment?: string | null
    tags?: string[]
    settings?: {
      ipv4_only?: boolean
      ipv6_only?: boolean
      flatten_cname?: boolean
    } | null
    private_routing?: false
    id: string
  }
  BatchRequest: {
    deletes?: {
      id: string
    }[]
    patches?: ApiSchemas["RecordInputWithId"][]
    puts?: ApiSchemas["RecordInputWithId"][]
    posts?: ApiSchemas["RecordInput"][]
  }
  Zone: {
    /** 32 lowercase hex characters */
    id: string
    name: string
    /** pending until ownership is proven (docs/zone-ownership.md) */
    status: "pending" | "active"
    paused: boolean
    type: "full" | "partial" | "secondary" | "internal"
    development_mode: number
    name_servers: string[]
    vanity_name_servers: string[]
    original_name_servers: null
    original_registrar: null
    original_dnshost: null
    /** RFC 3339 timestamp */
    created_on: string
    /** RFC 3339 timestamp */
    modified_on: string
    activated_on: string | null
    /** Publish it as TXT at _edgedns-verify.<name> to prove ownership of a pending zone */
    verification_key: string | null
    meta: {
      [key: string]: unknown
    }
    owner: {
      id: string | null
      type: string
      name: string
    }
    account: {
      /** 32 lowercase hex characters */
      id: string
      name: string
    }
    permissions: string[]
    plan: {
      id: string
      name: string
      [key: string]: unknown
    }
  }
  TokenPolicy: {
    id?: string
    effect?: "allow"
    permission_groups: {
      id?: string
      name?: string
    }[]
    resources: {
      [key: string]: "*" | {
        [key: string]: "*"
      }
    }
  }
  Error: {
    code: number
    message: string
    /** JSON pointer of the offending batch item */
    source?: {
      pointer: string
    }
    error_chain?: {
      code: number
      message: string
    }[]
  }
  ResultInfo: {
    /** Absent on a page reached by cursor */
    page?: number
    per_page: number
    count: number
    /** Absent on a page reached by cursor */
    total_count?: number
    /** Absent on a page reached by cursor */
    total_pages?: number
    /** GET /zones: pass `after` as `cursor` for the next page */
    cursors?: {
      after?: string
    }
  }
  BatchResult: {
    deletes?: ApiSchemas["Record"][]
    patches?: ApiSchemas["Record"][]
    puts?: ApiSchemas["Record"][]
    posts?: ApiSchemas["Record"][]
  }
  DnsSettings: {
    /** Always false: flatten per record with settings.flatten_cname */
    flatten_all_cnames: boolean
    /** Always false */
    foundation_dns: boolean
    /** Always {}: zones here are not internal zones */
    internal_dns: {
      reference_zone_id?: string
    }
    /** Always false */
    multi_provider: boolean
    /** Always false */
    secondary_overrides: boolean
    ns_ttl: number
    soa: {
      mname: string
      rname: string
      refresh: number
      retry: number
      expire: number
      min_ttl: number
      ttl: number
    }
    zone_mode: string
    nameservers: {
      type: string
    }
    proxy_addresses: {
      ipv4: string[]
      ipv6: string[]
    }
  }
  ImportResult: {
    /** Records created (identical existing records are skipped) */
    recs_added: number
    recs_added_by_type: {
      [key: string]: number
    }
    /** Resource records in the file, after $GENERATE, including skipped SOA/NS */
    total_records_parsed: number
  }
  Token: {
    /** 32 lowercase hex characters */
    id: string
    name: string
    /** `expired` once `expires_on` has passed */
    status: "active" | "expired"
    /** RFC 3339 timestamp */
    issued_on: string
    /** RFC 3339 timestamp */
    modified_on: string
    /** RFC 3339 timestamp */
    not_before?: string
    /** RFC 3339 timestamp */
    expires_on?: string
    /** When the token last authenticated, to within an hour (each API isolate records a use at most once an hour per token) */
    last_used_on?: string
    policies: {
      id?: string
      effect: "allow"
      permission_groups: {
        id?: string
        name?: string
      }[]
      resources: {
        [key: string]: "*" | {
          [key: string]: "*"
        }
      }
    }[]
    /** The secret; returned once, on create */
    value?: string
  }
  Account: {
    /** 32 lowercase hex characters */
    id: string
    name: string
    type: string
    /** RFC 3339 timestamp */
    created_on: string
    settings: {
      enforce_twofactor: boolean
      max_dns_batch_changes: number | null
      /** Requests each of the account's API tokens may make per 5 minutes */
      api_rate_limit: number
    }
  }
  Propagation: {
    /** The zone's status: a pending zone is not served, so nothing of it is built into KV (built_seq 0, lag_ms 0, nothing expected) */
    status: "pending" | "active"
    /** For a pending zone: why nothing is built */
    message?: string
    committed_seq: number
    built_seq: number
    lag_ms: number
    last_full_build: string | null
    built_at: string | null
    last_error: {
      at: string | null
      message: string
    } | null
  }
  TsigKey: {
    id: string
    /** Key name: lower case, no final dot */
    name: string
    algo: "hmac-sha256." | "hmac-sha512."
    /** Base64 */
    secret: string
  }
  TsigKeyInput: {
    name: string
    algo: string
    secret: string
  }
  Peer: {
    id: string
    name: string
    /** Absent until set */
    ip?: string
    /** Absent until an ip is set (then 53 unless given) */
    port?: number
    ixfr_enable: boolean
    tsig_id?: string
  }
  PeerInput: {
    name: string
    ip?: string | null
    port?: number | null
    ixfr_enable?: boolean | null
    tsig_id?: (string | "") | null
  }
  TransferAcl: {
    id: string
    name: string
    /** Canonical CIDR: network address / prefix length */
    ip_range: string
  }
  TransferAclInput: {
    name: string
    ip_range: string
  }
  IncomingTransfers: {
    /** The zone id */
    id: string
    name: string
    peers: string[]
    /** RFC 3339 timestamp; absent until it happened */
    created_time: string
    /** RFC 3339 timestamp; absent until it happened */
    modified_time: string
    /** RFC 3339 timestamp; absent until it happened */
    checked_time?: string
    auto_refresh_seconds: number
    /** Serial of the copy the zone holds: its last transfer committed */
    soa_serial?: number
    /** Records of the primary's zone the copy held lacks, by type (types the records API does not hold, records it refuses), with the first reason; absent until a transfer reports */
    skipped_records?: {
      type: string
      count: number
      reason: string
    }[]
    /** False while the zone answers no query: it holds no copy yet, or its copy is past its SOA's expire with no primary confirming it */
    serving: boolean
    /** Checks of the primaries failed since the last good one (GET only) */
    failed_checks?: number
    /** The last check's error; absent after a good check (GET only) */
    last_error?: string
    /** When the zone's primaries are next checked without a NOTIFY; absent while a check runs (GET only) */
    next_check_time?: string
    /** When the copy stops being answered unless a primary confirms it first (the last good check plus the SOA's expire; past once expired); absent before a good check (GET only) */
    expires_time?: string
  }
  IncomingTransfersInput: {
    name: string
    peers: string[]
    auto_refresh_seconds: number
  }
  OutgoingTransfers: {
    /** The zone id */
    id: string
    name: string
    peers: string[]
    /** RFC 3339 timestamp; absent until it happened */
    created_time: string
    /** RFC 3339 timestamp; absent until it happened */
    modified_time: string
    /** RFC 3339 timestamp; absent until it happened */
    checked_time?: string
    /** The zone's current SOA serial */
    soa_serial: number
    /** RFC 3339 timestamp; absent until it happened */
    last_transferred_time?: string
  }
  OutgoingTransfersInput: {
    name: string
    peers: string[]
  }
  CatalogZone: {
    id: string
    /** The catalog zone's name: lower case, no final dot */
    name: string
    /** The secondaries that get NOTIFY and may transfer it */
    peers: string[]
    enabled: boolean
    /** Moves with every membership change: max(previous + 1, now in epoch seconds) */
    soa_serial: number
    created_time: string
    modified_time: string
  }
  CatalogZoneInput: {
    name: string
    peers: string[]
    enabled?: boolean
  }
  /** data of a CAA record */
  "RecordData.CAA": {
    flags: number
    tag: string
    value: string
  }
  /** data of a CERT record */
  "RecordData.CERT": {
    type: number
    key_tag: number
    algorithm: number
    certificate: string
  }
  /** data of a DNSKEY record */
  "RecordData.DNSKEY": {
    flags: number
    protocol: number
    algorithm: number
    public_key: string
  }
  /** data of a DS record */
  "RecordData.DS": {
    key_tag: number
    algorithm: number
    digest_type: number
    digest: string
  }
  /** data of a HTTPS record */
  "RecordData.HTTPS": {
    priority: number
    target: string
    value?: string
  }
  /** data of a LOC record */
  "RecordData.LOC": {
    lat_degrees: number
    lat_minutes?: number
    lat_seconds?: number
    lat_direction: "N" | "S"
    long_degrees: number
    long_minutes?: number
    long_seconds?: number
    long_direction: "E" | "W"
    altitude: number
    size?: number
    precision_horz?: number
    precision_vert?: number
  }
  /** data of a NAPTR record */
  "RecordData.NAPTR": {
    order: number
    preference: number
    flags: string
    service: string
    regex: string
    replacement: string
  }
  /** data of a SMIMEA record */
  "RecordData.SMIMEA": {
    usage: number
    selector: number
    matching_type: number
    certificate: string
  }
  /** data of a SRV record */
  "RecordData.SRV": {
    priority: number
    weight: number
    port: number
    target: string
  }
  /** data of a SSHFP record */
  "RecordData.SSHFP": {
    algorithm: number
    type: number
    fingerprint: string
  }
  /** data of a SVCB record */
  "RecordData.SVCB": {
    priority: number
    target: string
    value?: string
  }
  /** data of a TLSA record */
  "RecordData.TLSA": {
    usage: number
    selector: number
    matching_type: number
    certificate: string
  }
  /** data of a URI record */
  "RecordData.URI": {
    weight: number
    target: string
  }
}

export const CHANGE_SEQ_HEADER = "x-edgedns-change-seq"
