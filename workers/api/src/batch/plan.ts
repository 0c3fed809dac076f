/**
 * @module Pure batch planning: applies deletes → patches → puts → posts in memory against the
 * loaded state, checks every rule against the resulting state, and lists what to write. The error
 * reported is the first in execution order, whether an item is invalid or conflicts with an earlier one.
 * No I/O: the caller loads every record the batch can touch in one read, then writes the plan.
 */
import { RecordError } from '@edgedns/records'
import { ApiError, Codes } from '../http/api-error.ts'
import { isId } from '../http/ids.ts'
import { buildRecord, mergePatch, type BuildContext } from '../records/input.ts'
import { identityKey, sameRecord, type DnsRecord } from '../records/model.ts'
import type { BatchRequest } from './request.ts'

type ChangeOp = 'create' | 'update' | 'delete'

export interface Change {
  op: ChangeOp
  recordId: string
  before: DnsRecord | null
  after: DnsRecord | null
}

export interface Plan {
  /** Response lists: changed items in request order, then the unchanged ones. */
  result: { deletes: DnsRecord[]; patches: DnsRecord[]; puts: DnsRecord[]; posts: DnsRecord[] }
  /** Net effect per record, in the order of first touch. */
  changes: Change[]
}

export interface PlanOptions extends BuildContext {
  newId: () => string
  /** Prefix error pointers with the item's position (batch endpoint) or not (single-record endpoints). */
  pointers: boolean
}

type Section = 'deletes' | 'patches' | 'puts' | 'posts'

/** Position of an item in execution order, used to blame the later of two conflicting items. */
interface Placed {
  rec: DnsRecord
  section: Section
  index: number
}

export function planBatch(req: BatchRequest, loaded: DnsRecord[], opts: PlanOptions): Plan {
  const original = new Map(loaded.map((r) => [r.id, r]))
  const current = new Map<string, DnsRecord | null>(loaded.map((r) => [r.id, r]))
  const last = new Map<string, Placed>()
  const order: string[] = []
  const seen = new Set<string>()
  const result: Plan['result'] = { deletes: [], patches: [], puts: [], posts: [] }
  const unchanged: { patches: DnsRecord[]; puts: DnsRecord[] } = { patches: [], puts: [] }

  // The first item that fails to build stops the walk; items after it are never run. A name
  // conflict among the items before it is an earlier error and wins (checked below).
  let firstError: unknown = null
  const at = (section: Section, index: number, fn: () => void): void => {
    if (firstError !== null) return
    try {
      fn()
    } catch (e) {
      firstError = withPointer(e, opts.pointers ? `/${section}/${index}` : undefined)
    }
  }
  const touch = (id: string) => {
    if (seen.has(id)) return
    seen.add(id)
    order.push(id)
  }
  const lookup = (id: string): DnsRecord => {
    if (!isId(id)) throw new ApiError(400, Codes.invalidRecordId, 'Invalid dns record identifier')
    const cur = current.get(id)
    if (!cur) throw new ApiError(404, Codes.recordNotFound, 'Record does not exist.')
    return cur
  }

  req.deletes?.forEach((item, i) =>
    at('deletes', i, () => {
      const cur = lookup(item.id)
      touch(cur.id)
      current.set(cur.id, null)
      last.delete(cur.id)
      result.deletes.push(cur)
    })
  )

  const overwrite = (section: 'patches' | 'puts') =>
    req[section]?.forEach((item, i) =>
      at(section, i, () => {
        const cur = lookup(item.id)
        const fields = section === 'patches' ? mergePatch(cur, item) : item
        const built = buildRecord(fields, opts, cur.id, cur)
        const next = sameRecord(built, cur) ? cur : built
        touch(cur.id)
        current.set(cur.id, next)
        last.set(cur.id, { rec: next, section, index: i })
        if (next === cur) unchanged[section].push(next)
        else result[section].push(next)
      })
    )
  overwrite('patches')
  overwrite('puts')
  result.patches.push(...unchanged.patches)
  result.puts.push(...unchanged.puts)

  const posted: string[] = []
  req.posts?.forEach((item, i) =>
    at('posts', i, () => {
      const rec = buildRecord(item, opts, opts.newId())
      posted.push(rec.id)
      last.set(rec.id, { rec, section: 'posts', index: i })
      result.posts.push(rec)
    })
  )

  checkFinalState(original, current, last, opts.pointers)
  if (firstError !== null) throw firstError

  const changes: Change[] = []
  for (const id of order) {
    const before = original.get(id)!
    const after = current.get(id) ?? null
    if (after === null) changes.push({ op: 'delete', recordId: id, before, after: null })
    else if (after !== before) changes.push({ op: 'update', recordId: id, before, after })
  }
  for (const id of posted)
    changes.push({ op: 'create', recordId: id, before: null, after: last.get(id)!.rec })
  return { result, changes }
}

const SECTION_ORDER: Record<Section, number> = { deletes: 0, patches: 1, puts: 2, posts: 3 }

/**
 * Uniqueness and CNAME exclusivity over the final state. Each record is checked against the
 * untouched records and the records of items that ran before it, so the later item is blamed.
 */
function checkFinalState(
  original: Map<string, DnsRecord>,
  current: Map<string, DnsRecord | null>,
  last: Map<string, Placed>,
  pointers: boolean
): void {
  const byName = new Map<string, DnsRecord[]>()
  for (const r of original.values()) {
    if (last.has(r.id) || current.get(r.id) === null) continue
    const list = byName.get(r.name)
    if (list) list.push(r)
    else byName.set(r.name, [r])
  }
  // Deleted records are in neither list; touched ones enter with their final version only.
  const placed = [...last.values()]
  placed.sort((a, b) => SECTION_ORDER[a.section] - SECTION_ORDER[b.section] || a.index - b.index)
  for (const p of placed) {
    const list = byName.get(p.rec.name)
    // A name nothing else holds (most posts of a large batch) has nothing to check against.
    if (!list) {
      byName.set(p.rec.name, [p.rec])
      continue
    }
    try {
      checkAgainst(
        p.rec,
        list.filter((o) => o.id !== p.rec.id)
      )
    } catch (e) {
      throw withPointer(e, pointers ? `/${p.section}/${p.index}` : undefined)
    }
    list.push(p.rec)
  }
}

const ADDRESS_TYPES = new Set(['A', 'AAAA', 'CNAME'])

function checkAgainst(rec: DnsRecord, others: DnsRecord[]): void {
  if (others.length === 0) return
  const identity = identityKey(rec)
  // TXT content compares by meaning (`a` and `"a"` are one RR), so only its type is a quick test.
  const quick = rec.type === 'TXT' ? () => true : (o: DnsRecord) => o.content === rec.content
  if (others.some((o) => o.type === rec.type && quick(o) && identityKey(o) === identity)) {
    throw new RecordError(Codes.identicalRecord, 'An identical record already exists.')
  }
  if (rec.type === 'CNAME') {
    if (others.some((o) => ADDRESS_TYPES.has(o.type))) {
      throw new RecordError(
        Codes.cnameConflict,
        'An A, AAAA, or CNAME record with that host already exists.'
      )
    }
    throw new RecordError(
      Codes.cnameConflict,
      `A ${others[0]!.type} record with that host already exists; a CNAME record cannot share its name with other records.`
    )
  }
  if (others.some((o) => o.type === 'CNAME')) {
    throw new RecordError(
      Codes.cnameExists,
      'A CNAME record with that host already exists. For more details, refer to <https://developers.cloudflare.com/dns/manage-dns-records/troubleshooting/records-with-same-name/>.'
    )
  }
}

function withPointer(e: unknown, pointer: string | undefined): unknown {
  if (e instanceof RecordError)
    return new ApiError(400, e.code, e.message, pointer ? { pointer } : {})
  if (e instanceof ApiError && pointer && !e.extra.pointer) {
    return new ApiError(e.status, e.code, e.message, { ...e.extra, pointer })
  }
  return e
}
