/** @module Strict KV: operations per invocation, key sizes and writes per key, and the edge model. */
import { EdgeCache, type KvGetOptions } from '@edgedns/kv-layout/edge-model'
import { edgeGet } from './edge-kv-read.ts'
import { PRODUCTION_LIMITS } from '@edgedns/platform-limits'
import { breach, byteLength, bytesIfOver, invocations } from './limits.ts'

export interface StrictKvOptions {
  /** The builder's pacing of writes per key; the one-write-per-second check applies only when ≥ 1000. */
  writeIntervalMs: number
  /** Clock of the per-key write check and of the edge cache (tests). */
  now?: () => number
  /**
   * The production KV model (`KV_MODEL=production`): this wrapper is one location whose reads go
   * through its own edge cache. `getWithMetadata` and `list` are not modelled (they read through).
   */
  edgeCache?: boolean
}

function countKvOp(what: string): void {
  const inv = invocations.getStore()
  if (!inv) return
  inv.kvOps++
  if (inv.kvOps > PRODUCTION_LIMITS.kvOpsPerInvocation) {
    breach(
      'KV operations per invocation',
      `${what} is operation ${inv.kvOps} > ${PRODUCTION_LIMITS.kvOpsPerInvocation}`
    )
  }
}

function checkKey(key: string, what: string): void {
  const bytes = byteLength(key)
  if (bytes > PRODUCTION_LIMITS.kvKeyBytes)
    breach(
      'KV key size',
      `${what} key of ${bytes} bytes > ${PRODUCTION_LIMITS.kvKeyBytes}: ${key.slice(0, 80)}…`
    )
}

/** KV with production limits: operations per invocation, key and value sizes, writes per key. */
export function strictKv(kv: KVNamespace, options: StrictKvOptions): KVNamespace {
  const now = options.now ?? Date.now
  const lastWrite = new Map<string, number>()
  const paced = options.writeIntervalMs >= PRODUCTION_LIMITS.kvWritesPerKeyIntervalMs
  const edge = options.edgeCache ? new EdgeCache(now) : null
  const checkWriteRate = (key: string): void => {
    if (!paced) return
    const t = now()
    const prev = lastWrite.get(key)
    if (prev !== undefined && t - prev < PRODUCTION_LIMITS.kvWritesPerKeyIntervalMs) {
      breach(
        'KV writes per key',
        `${key} written again after ${t - prev} ms (at most one write per second per key)`
      )
    }
    lastWrite.set(key, t)
  }
  const wrapped = {
    get: (key: string | string[], opts?: unknown) => {
      for (const k of Array.isArray(key) ? key : [key]) checkKey(k, 'get')
      countKvOp(Array.isArray(key) ? `bulk get of ${key.length} keys` : `get ${key}`)
      if (edge) return edgeGet(kv, edge, key, opts as KvGetOptions | undefined)
      return (kv.get as (k: unknown, o?: unknown) => Promise<unknown>)(key, opts)
    },
    getWithMetadata: (key: string | string[], opts?: unknown) => {
      for (const k of Array.isArray(key) ? key : [key]) checkKey(k, 'getWithMetadata')
      countKvOp(
        Array.isArray(key) ? `bulk getWithMetadata of ${key.length} keys` : `getWithMetadata ${key}`
      )
      return (kv.getWithMetadata as (k: unknown, o?: unknown) => Promise<unknown>)(key, opts)
    },
    put: (
      key: string,
      value: string | ArrayBuffer | ArrayBufferView | ReadableStream,
      opts?: KVNamespacePutOptions
    ) => {
      checkKey(key, 'put')
      const bytes = bytesIfOver(value, PRODUCTION_LIMITS.kvValueBytes)
      if (bytes > PRODUCTION_LIMITS.kvValueBytes)
        breach('KV value size', `put ${key}: ${bytes} bytes > ${PRODUCTION_LIMITS.kvValueBytes}`)
      countKvOp(`put ${key}`)
      checkWriteRate(key)
      return kv.put(key, value, opts)
    },
    delete: (key: string) => {
      checkKey(key, 'delete')
      countKvOp(`delete ${key}`)
      checkWriteRate(key)
      return kv.delete(key)
    },
    list: (opts?: KVNamespaceListOptions) => {
      countKvOp(`list ${opts?.prefix ?? ''}`)
      return kv.list(opts)
    },
  }
  return wrapped as unknown as KVNamespace
}
