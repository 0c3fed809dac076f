/** @module Query parameters the list operations share: paging, matching, list filters. */
import type { Param } from './operation.ts'

/** Paging of a list (decimal digits; a parameter given twice is read as its last value). */
export const page: Param[] = [
  { name: 'page', type: 'integer', description: 'Page number, from 1' },
  { name: 'per_page', type: 'integer', description: 'Items per page' },
]

/** The four ways a text field can be matched. */
const match = (field: string): Param[] =>
  ['exact', 'contains', 'startswith', 'endswith'].map((op) => ({
    name: `${field}.${op}`,
    description: `${field} ${op} (case-insensitive)`,
  }))

/** `include_shadow_metadata`, which every operation answering records takes. */
export const shadowMetaQuery: Param[] = [
  {
    name: 'include_shadow_metadata',
    type: 'boolean',
    description:
      'Add shadow metadata to each record’s meta (shadowed_by, is_glue, dead_glue, shadowed_records_count); computed only for answers of at most 1,000 records',
  },
]

export const recordListQuery: Param[] = [
  { name: 'type', description: 'One record type, in any case (another value is 400, code 9020)' },
  { name: 'name', description: 'Exact name (legacy form of name.exact)' },
  ...match('name'),
  { name: 'content', description: 'Exact content (legacy form of content.exact)' },
  ...match('content'),
  { name: 'comment', description: 'Exact comment' },
  ...match('comment'),
  { name: 'comment.present', description: 'Only records with a comment' },
  { name: 'comment.absent', description: 'Only records without a comment' },
  { name: 'tag', description: 'name (present) or name:value (exact)' },
  { name: 'tag.present', description: 'Records carrying this tag name' },
  { name: 'tag.absent', description: 'Records not carrying this tag name' },
  ...match('tag').map((p) => ({ ...p, description: `${p.description}; value is name:value` })),
  { name: 'proxied', type: 'boolean', description: 'Proxied or not' },
  { name: 'search', description: 'Free text over name, content, comment and tags' },
  {
    name: 'match',
    enum: ['all', 'any'],
    description: 'Combine non-tag filters with AND (all) or OR (any)',
  },
  { name: 'tag_match', enum: ['all', 'any'], description: 'Combine tag filters with AND or OR' },
  ...shadowMetaQuery,
  {
    name: 'shadowed_by_name',
    description:
      'Only the records the NS delegation at this name shadows: at or below it, except its own NS, DS and NSEC (none when no NS record is at the name). A subdomain of the zone, not the apex; requires include_shadow_metadata=true. Always ANDed with the other filters',
  },
  {
    name: 'shadowing_name',
    description:
      'Only the NS records at this name and at its parents below the apex (the delegations shadowing it). A subdomain of the zone, not the apex. Always ANDed with the other filters',
  },
  {
    name: 'order',
    enum: ['type', 'name', 'content', 'ttl', 'proxied'],
    description: 'Sort field (default type)',
  },
  { name: 'direction', enum: ['asc', 'desc'], description: 'Sort direction' },
  ...page,
]

export const zoneListQuery: Param[] = [
  {
    name: 'name',
    description:
      'Zone name, optionally with an operator: equal:, not_equal:, starts_with:, ends_with:, contains:',
  },
  {
    name: 'status',
    enum: ['initializing', 'pending', 'active', 'moved'],
    description: 'Zone status (Cloudflare’s; zones here are pending or active)',
  },
  {
    name: 'type',
    description:
      'Zone type: full, partial, secondary or internal; several comma-separated or repeated. Without it, internal zones are left out',
  },
  { name: 'account.id', description: 'Account id' },
  { name: 'account.name', description: 'Account name' },
  {
    name: 'match',
    enum: ['all', 'any'],
    description:
      'Whether a zone must match all of name, status, account.id and account.name (default) or any of them; type applies either way',
  },
  {
    name: 'order',
    enum: ['name', 'status', 'account.id', 'account.name'],
    description: 'Sort field',
  },
  { name: 'direction', enum: ['asc', 'desc'], description: 'Sort direction' },
  {
    name: 'cursor',
    description:
      'result_info.cursors.after of the previous page (same order and direction): continues after its last zone at the cost of a first page; a deep `page` is an offset and costs more the deeper it is',
  },
  ...page,
]

export const auditLogQuery: Param[] = [
  { name: 'action.type', enum: ['token_create', 'token_delete'], description: 'Only this action' },
  ...page,
]
