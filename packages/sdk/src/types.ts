/**
 * @module Shapes of the edgedns API (Cloudflare v4 compatible) as the SDK sees them.
 */

export type RecordType =
  | 'A' | 'AAAA' | 'CAA' | 'CERT' | 'CNAME' | 'DNSKEY' | 'DS' | 'HTTPS' | 'LOC' | 'MX' | 'NAPTR'
  | 'NS' | 'OPENPGPKEY' | 'PTR' | 'SMIMEA' | 'SRV' | 'SSHFP' | 'SVCB' | 'TLSA' | 'TXT' | 'URI'

export interface RecordSettings {
  ipv4_only?: boolean
  ipv6_only?: boolean
  flatten_cname?: boolean
}

export interface DnsRecord {
  id: string
  name: string
  type: RecordType
  content: string
  proxiable: boolean
  proxied: boolean
  ttl: number
  settings: RecordSettings
  meta: Record<string, unknown>
  comment: string | null
  tags: string[]
  created_on: string
  modified_on: string
  comment_modified_on?: string
  tags_modified_on?: string
  priority?: number
  data?: Record<string, unknown>
}

export interface RecordInput {
  type?: RecordType | Lowercase<RecordType>
  name?: string
  content?: string
  data?: Record<string, unknown>
  ttl?: number
  proxied?: boolean
  priority?: number
  comment?: string | null
  tags?: string[]
  settings?: RecordSettings | null
}

export type NewRecord = RecordInput & { type: RecordType | Lowercase<RecordType>; name: string }

export interface BatchRequest {
  deletes?: { id: string }[]
  patches?: (RecordInput & { id: string })[]
  puts?: (RecordInput & { id: string })[]
  posts?: NewRecord[]
}

export interface BatchResult {
  deletes?: DnsRecord[]
  patches?: DnsRecord[]
  puts?: DnsRecord[]
  posts?: DnsRecord[]
}

type TextFilter = string | { exact?: string; contains?: string; startswith?: string; endswith?: string }

export interface RecordFilter {
  type?: RecordType
  name?: TextFilter
  content?: TextFilter
  comment?: TextFilter | { present?: true; absent?: true }
  tag?: string | { present?: string; absent?: string; exact?: string; contains?: string; startswith?: string; endswith?: string }
  proxied?: boolean
  search?: string
  match?: 'all' | 'any'
  tag_match?: 'all' | 'any'
  order?: 'type' | 'name' | 'content' | 'ttl' | 'proxied'
  direction?: 'asc' | 'desc'
  /** Page size used while iterating (default 1000, server max 50,000). */
  per_page?: number
}

export interface Zone {
  id: string
  name: string
  status: string
  paused: boolean
  type: 'full' | 'partial' | 'secondary' | 'internal'
  name_servers: string[]
  vanity_name_servers: string[]
  account: { id: string; name: string }
  created_on: string
  modified_on: string
  activated_on: string | null
  [key: string]: unknown
}

export interface DnsSettings {
  ns_ttl: number
  soa: { mname: string; rname: string; refresh: number; retry: number; expire: number; min_ttl: number; ttl: number }
  proxy_addresses: { ipv4: string[]; ipv6: string[] }
  [key: string]: unknown
}

export interface ImportResult {
  recs_added: number
  recs_added_by_type?: Record<string, number>
  total_records_parsed: number
}

export interface TokenPolicy {
  id?: string
  effect?: 'allow'
  permission_groups: { id?: string; name?: string }[]
  resources: Record<string, '*' | Record<string, '*'>>
}

export interface Token {
  id: string
  name: string
  status: string
  issued_on: string
  modified_on: string
  expires_on?: string
  policies: TokenPolicy[]
  /** The secret, present only in the answer to create. */
  value?: string
}

export interface Account {
  id: string
  name: string
  settings: { max_dns_batch_changes: number | null; [key: string]: unknown }
  [key: string]: unknown
}

export interface Propagation {
  committed_seq: number
  built_seq: number
  lag_ms: number
  last_full_build: string | null
  built_at: string | null
  last_error: { at: string | null; message: string } | null
}
