/**
 * @module Records: auto-paginated list, CRUD, batch (with opt-in chunking and progress),
 * zone-file import and export.
 */
import { countChanges, limitFromError, mergeResults, splitBatch } from './chunking.ts'
import { EdgeDnsError } from './errors.ts'
import { type Envelope, type Transport, withSeq } from './http.ts'
import { paginate } from './paginate.ts'
import { recordQuery } from './query.ts'
import type {
  BatchRequest,
  BatchResult,
  DnsRecord,
  ImportResult,
  NewRecord,
  RecordFilter,
  RecordInput,
} from './types.ts'

export type WithSeq<T> = T & { readonly changeSeq: number | undefined }

export interface BatchProgress {
  /** Changes committed so far. */
  done: number
  total: number
  /** 1-based index of the chunk just committed, and the number of chunks. */
  chunk: number
  chunks: number
  /** Change-log sequence after this chunk. */
  changeSeq: number | undefined
}

export interface BatchOptions {
  /**
   * Split into atomic batches of at most this many changes (`true` = 3,500, Cloudflare's paid-plan
   * limit). Off by default: then the whole request is one atomic batch. If the server answers
   * 81063 for the first chunk, the SDK retries with the limit the server named.
   */
  chunk?: boolean | number
  onProgress?: (p: BatchProgress) => void
}

export interface ImportOptions {
  proxied?: boolean
  /** Called with the upload size before sending (the API answers once, at the end). */
  onUpload?: (bytes: number) => void
}

const DEFAULT_CHUNK = 3500
const PAGE = 1000

export class Records {
  private readonly t: Transport

  constructor(t: Transport) {
    this.t = t
  }

  private base(zoneId: string): string {
    return `/zones/${encodeURIComponent(zoneId)}/dns_records`
  }

  /** One page of records, with result_info. */
  page(zoneId: string, filter: RecordFilter = {}, page = 1): Promise<Envelope<DnsRecord[]>> {
    const q = { ...recordQuery(filter), page, per_page: filter.per_page ?? PAGE }
    return this.t.request<DnsRecord[]>({ method: 'GET', path: this.base(zoneId), query: q })
  }

  /** Every matching record, page after page: `for await (const r of client.records.list(id)) …` */
  list(zoneId: string, filter: RecordFilter = {}): AsyncGenerator<DnsRecord, void, undefined> {
    return paginate((p) => this.page(zoneId, filter, p))
  }

  get(zoneId: string, id: string): Promise<DnsRecord> {
    return this.t.result({ method: 'GET', path: `${this.base(zoneId)}/${id}` })
  }

  private async write(method: 'POST' | 'PUT' | 'PATCH' | 'DELETE', path: string, json?: unknown) {
    const env = await this.t.request<DnsRecord>({ method, path, json })
    return withSeq(env.result, env.changeSeq)
  }

  create(zoneId: string, record: NewRecord): Promise<WithSeq<DnsRecord>> {
    return this.write('POST', this.base(zoneId), record)
  }

  /** PUT: unspecified fields reset to their defaults. */
  update(zoneId: string, id: string, record: NewRecord): Promise<WithSeq<DnsRecord>> {
    return this.write('PUT', `${this.base(zoneId)}/${id}`, record)
  }

  /** PATCH: unspecified fields keep their values. */
  edit(zoneId: string, id: string, fields: RecordInput): Promise<WithSeq<DnsRecord>> {
    return this.write('PATCH', `${this.base(zoneId)}/${id}`, fields)
  }

  async delete(zoneId: string, id: string): Promise<WithSeq<{ id: string }>> {
    const env = await this.t.request<{ id: string }>({
      method: 'DELETE',
      path: `${this.base(zoneId)}/${id}`,
    })
    return withSeq(env.result, env.changeSeq)
  }

  private async batchOnce(zoneId: string, req: BatchRequest): Promise<WithSeq<BatchResult>> {
    const env = await this.t.request<BatchResult>({
      method: 'POST',
      path: `${this.base(zoneId)}/batch`,
      json: req,
    })
    return withSeq(env.result, env.changeSeq)
  }

  /**
   * Applies a batch. Without `chunk` it is one atomic request. With `chunk`, it is split into
   * limit-sized batches applied in order, each atomic on its own (not the whole set); a failing
   * chunk throws an EdgeDnsError whose `appliedChanges` counts what earlier chunks committed.
   */
  async batch(
    zoneId: string,
    req: BatchRequest,
    opts: BatchOptions = {}
  ): Promise<WithSeq<BatchResult>> {
    const total = countChanges(req)
    if (!opts.chunk) {
      const r = await this.batchOnce(zoneId, req)
      opts.onProgress?.({ done: total, total, chunk: 1, chunks: 1, changeSeq: r.changeSeq })
      return r
    }
    let size = opts.chunk === true ? DEFAULT_CHUNK : opts.chunk
    let chunks = splitBatch(req, size)
    const merged: BatchResult = {}
    let done = 0
    let seq: number | undefined
    for (let i = 0; i < chunks.length; i++) {
      let part: WithSeq<BatchResult>
      try {
        part = await this.batchOnce(zoneId, chunks[i]!)
      } catch (e) {
        const limit =
          e instanceof EdgeDnsError && e.code === 81063 ? limitFromError(e.message) : undefined
        if (i === 0 && limit !== undefined && limit < size) {
          size = limit
          chunks = splitBatch(req, size)
          i = -1
          continue
        }
        if (e instanceof EdgeDnsError) {
          throw new EdgeDnsError({
            kind: e.kind,
            status: e.status,
            code: e.code,
            pointer: e.pointer,
            errors: e.errors,
            appliedChanges: done,
            message: `chunk ${i + 1}/${chunks.length}: ${e.message}`,
          })
        }
        throw e
      }
      mergeResults(merged, part)
      done += countChanges(chunks[i]!)
      seq = part.changeSeq
      opts.onProgress?.({ done, total, chunk: i + 1, chunks: chunks.length, changeSeq: seq })
    }
    return withSeq(merged, seq)
  }

  /**
   * Imports a BIND zone file (text or Blob/File) as one atomic batch. Identical existing records
   * are skipped; `recs_added` counts what was created.
   */
  async import(
    zoneId: string,
    file: string | Blob,
    opts: ImportOptions = {}
  ): Promise<WithSeq<ImportResult & { messages: string[] }>> {
    const form = new FormData()
    const blob = typeof file === 'string' ? new Blob([file], { type: 'text/plain' }) : file
    form.append('file', blob, 'zone.txt')
    form.append('proxied', String(opts.proxied ?? false))
    opts.onUpload?.(blob.size)
    const env = await this.t.request<ImportResult>({
      method: 'POST',
      path: `${this.base(zoneId)}/import`,
      form,
    })
    return withSeq({ ...env.result, messages: env.messages.map((m) => m.message) }, env.changeSeq)
  }

  /** The zone as a BIND zone file. */
  export(zoneId: string): Promise<string> {
    return this.t.text({ method: 'GET', path: `${this.base(zoneId)}/export` })
  }
}
