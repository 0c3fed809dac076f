/**
 * @module The DNS record operations: the records list with its filters, single-record reads and
 * writes, the batch, import and export, and the zone's change history.
 */
import { batchRequestSchema } from '../batch/request.ts'
import { recordFieldsSchema } from '../records/input.ts'
import * as r from './responses.ts'
import type { Operation } from './operation.ts'
import { page, recordListQuery, shadowMetaQuery } from './query-params.ts'

const records = '/zones/{zone_id}/dns_records'

export const recordOps: Operation[] = [
  {
    method: 'get',
    path: records,
    tag: 'DNS records',
    summary: 'List records (filters, order, pages)',
    query: recordListQuery,
    result: r.recordResponse,
    list: true,
  },
  {
    method: 'post',
    path: records,
    tag: 'DNS records',
    summary: 'Create a record',
    query: shadowMetaQuery,
    body: recordFieldsSchema,
    result: r.recordResponse,
  },
  {
    method: 'get',
    path: `${records}/{record_id}`,
    tag: 'DNS records',
    summary: 'Get a record',
    query: shadowMetaQuery,
    result: r.recordResponse,
  },
  {
    method: 'put',
    path: `${records}/{record_id}`,
    tag: 'DNS records',
    summary: 'Overwrite a record (unspecified fields reset)',
    query: shadowMetaQuery,
    body: recordFieldsSchema,
    result: r.recordResponse,
  },
  {
    method: 'patch',
    path: `${records}/{record_id}`,
    tag: 'DNS records',
    summary: 'Edit a record (unspecified fields kept)',
    query: shadowMetaQuery,
    body: recordFieldsSchema,
    result: r.recordResponse,
  },
  {
    method: 'delete',
    path: `${records}/{record_id}`,
    tag: 'DNS records',
    summary: 'Delete a record',
    result: r.deletedResponse,
  },
  {
    method: 'post',
    path: `${records}/batch`,
    tag: 'DNS records',
    summary: 'Atomic batch: deletes → patches → puts → posts',
    query: shadowMetaQuery,
    body: batchRequestSchema,
    result: r.batchResponse,
  },
  {
    method: 'post',
    path: `${records}/import`,
    tag: 'Import and export',
    summary: 'Import a BIND zone file as one atomic batch',
    form: r.importForm,
    result: r.importResponse,
  },
  {
    method: 'get',
    path: `${records}/export`,
    tag: 'Import and export',
    summary:
      'Export the zone as a BIND zone file (text/plain), streamed; or one page of it with per_page/cursor',
    query: [
      {
        name: 'per_page',
        type: 'integer',
        description:
          'Records in one page of the export (1–10,000); the header x-edgedns-next-cursor names the next page',
      },
      { name: 'cursor', description: 'The x-edgedns-next-cursor of the previous page' },
    ],
    result: 'text',
  },
  {
    method: 'get',
    path: `${records}/audit`,
    tag: 'DNS records',
    summary: 'Change history with before/after, newest first',
    query: [...page, { name: 'record_id', description: 'Only this record' }],
    result: r.auditEntry,
    list: true,
  },
]
