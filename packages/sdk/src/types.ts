/**
 * @module Shapes of the edgedns API (Cloudflare v4 compatible) as the SDK sees them: the API's own
 * schemas (`api-types.generated.ts`, generated from its OpenAPI document), narrowed where the SDK
 * promises more than the wire format says, plus the record list filter (query parameters).
 */
import type { ApiSchemas } from './api-types.generated.ts'

export type { ApiSchemas }

export type DnsRecord = ApiSchemas['Record']
export type RecordType = DnsRecord['type']
export type RecordSettings = DnsRecord['settings']

/** Record fields of a create, overwrite or edit; the type in any case (`'a'` = `'A'`). */
export type RecordInput = Omit<ApiSchemas['RecordInput'], 'type'> & {
  type?: RecordType | Lowercase<RecordType>
}

export type NewRecord = RecordInput & { type: RecordType | Lowercase<RecordType>; name: string }

/** A batch as the API takes it: deletes → patches → puts → posts. */
export interface BatchRequest {
  deletes?: ApiSchemas['BatchRequest']['deletes']
  patches?: (RecordInput & { id: string })[]
  puts?: (RecordInput & { id: string })[]
  posts?: NewRecord[]
}

export type BatchResult = ApiSchemas['BatchResult']
export type Zone = ApiSchemas['Zone']
export type DnsSettings = ApiSchemas['DnsSettings']
export type ImportResult = ApiSchemas['ImportResult']
export type TokenPolicy = ApiSchemas['TokenPolicy']
export type Token = ApiSchemas['Token']
export type Account = ApiSchemas['Account']
export type Propagation = ApiSchemas['Propagation']
export type TsigKey = ApiSchemas['TsigKey']
export type TsigKeyInput = ApiSchemas['TsigKeyInput']
export type Peer = ApiSchemas['Peer']
export type PeerInput = ApiSchemas['PeerInput']
export type TransferAcl = ApiSchemas['TransferAcl']
export type TransferAclInput = ApiSchemas['TransferAclInput']
export type IncomingTransfers = ApiSchemas['IncomingTransfers']
export type IncomingTransfersInput = ApiSchemas['IncomingTransfersInput']
export type OutgoingTransfers = ApiSchemas['OutgoingTransfers']
export type OutgoingTransfersInput = ApiSchemas['OutgoingTransfersInput']
export type CatalogZone = ApiSchemas['CatalogZone']
export type CatalogZoneInput = ApiSchemas['CatalogZoneInput']

type TextFilter =
  string | { exact?: string; contains?: string; startswith?: string; endswith?: string }

export interface RecordFilter {
  type?: RecordType
  name?: TextFilter
  content?: TextFilter
  comment?: TextFilter | { present?: true; absent?: true }
  tag?:
    | string
    | {
        present?: string
        absent?: string
        exact?: string
        contains?: string
        startswith?: string
        endswith?: string
      }
  proxied?: boolean
  search?: string
  match?: 'all' | 'any'
  tag_match?: 'all' | 'any'
  order?: 'type' | 'name' | 'content' | 'ttl' | 'proxied'
  direction?: 'asc' | 'desc'
  /** Page size used while iterating (default 1000, server max 50,000). */
  per_page?: number
}
