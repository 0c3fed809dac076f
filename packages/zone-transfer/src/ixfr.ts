/**
 * @module The record sequence of an IXFR answer (RFC 1995 §4) from a zone's change log: the
 * single-SOA "up to date" answer, the incremental answer (condensed into one difference, or one
 * difference per serial step), or the decision to answer in the AXFR form when the log does not
 * reach back to the client's serial.
 */
import { TYPE_CODES } from '@edgedns/dns-facts'
import { encodeRdata, type ResponseRR } from '@edgedns/dns-wire'
import { serialAfter, soaSerial, withSerial } from './soa.ts'

/**
 * One committed change of the zone: the serial before and after it, and the records it removed
 * and added (a changed record is one deletion and one addition). SOA records in `deleted` and
 * `added` are ignored: the SOA lines of the answer are the zone's SOA with the serials `from` and
 * `to`, or `fromSoa` where the SOA's other fields changed too (a secondary zone's, set by its
 * primary): the removed SOA must be exactly the one the client holds.
 */
export interface IxfrStep {
  from: number
  to: number
  /** The zone's SOA at `from` (its serial `from`), when it differs from the current SOA in more than the serial. */
  fromSoa?: ResponseRR
  deleted: readonly ResponseRR[]
  added: readonly ResponseRR[]
}

export interface IxfrInput {
  /** The serial in the SOA of the client's IXFR request (authority section). */
  clientSerial: number
  /** The zone's current SOA; its serial is the version the answer leads to. */
  soa: ResponseRR
  /** The change log as steps, in any order; the answer follows the chain from `clientSerial`. */
  steps: readonly IxfrStep[]
  /** One difference from the client's version to the current one (default), or one per step. */
  condense?: boolean
}

export type IxfrPlan =
  | { kind: 'up-to-date'; records: ResponseRR[] }
  | { kind: 'incremental'; records: ResponseRR[] }
  /** The log does not reach the client's serial: answer with `axfrRecords` (RFC 1995 §4). */
  | { kind: 'axfr' }

function hex(bytes: Uint8Array): string {
  let out = ''
  for (const b of bytes) out += b.toString(16).padStart(2, '0')
  return out
}

/** Identity of a record for cancelling a deletion against an addition: owner, type, TTL, wire rdata. */
function recordKey(rr: ResponseRR): string {
  let data: string
  try {
    data = hex(encodeRdata(rr.type, rr.rdata))
  } catch {
    data = rr.rdata
  }
  return `${rr.name.toLowerCase().replace(/\.$/, '')}|${rr.type}|${rr.ttl}|${data}`
}

function withoutSoa(records: readonly ResponseRR[]): ResponseRR[] {
  return records.filter((rr) => rr.type !== TYPE_CODES.SOA)
}

/** The net effect of consecutive steps: what the first version had that the last lacks, and back. */
function condensed(steps: readonly IxfrStep[]): { deleted: ResponseRR[]; added: ResponseRR[] } {
  const net = new Map<string, { rr: ResponseRR; count: number }>()
  const bump = (rr: ResponseRR, by: number): void => {
    const key = recordKey(rr)
    const entry = net.get(key)
    if (entry) entry.count += by
    else net.set(key, { rr, count: by })
  }
  for (const step of steps) {
    for (const rr of withoutSoa(step.deleted)) bump(rr, -1)
    for (const rr of withoutSoa(step.added)) bump(rr, 1)
  }
  const deleted: ResponseRR[] = []
  const added: ResponseRR[] = []
  for (const { rr, count } of net.values()) {
    if (count < 0) deleted.push(rr)
    else if (count > 0) added.push(rr)
  }
  return { deleted, added }
}

/** The steps leading from `from` to `to`, or null when the log has a gap. */
function chain(steps: readonly IxfrStep[], from: number, to: number): IxfrStep[] | null {
  const byFrom = new Map(steps.map((s) => [s.from, s]))
  const path: IxfrStep[] = []
  let serial = from
  while (serial !== to) {
    const step = byFrom.get(serial)
    if (!step || path.length >= steps.length) return null
    path.push(step)
    serial = step.to
  }
  return path
}

export function planIxfr(input: IxfrInput): IxfrPlan {
  const { soa, clientSerial } = input
  if (soa.type !== TYPE_CODES.SOA) throw new RangeError('an IXFR answer needs the zone SOA')
  const current = soaSerial(soa.rdata)
  if (clientSerial === current || serialAfter(clientSerial, current)) {
    return { kind: 'up-to-date', records: [soa] }
  }
  const path = chain(input.steps, clientSerial, current)
  if (!path) return { kind: 'axfr' }
  /** The SOA at the start of `path[i]` (the current SOA past the last step). */
  const soaAt = (i: number): ResponseRR => {
    const step = path[i]
    if (!step) return soa
    return step.fromSoa ?? { ...soa, rdata: withSerial(soa.rdata, step.from) }
  }
  const differences =
    input.condense === false
      ? path.map((s, i) => ({
          from: soaAt(i),
          to: soaAt(i + 1),
          deleted: withoutSoa(s.deleted),
          added: withoutSoa(s.added),
        }))
      : [{ from: soaAt(0), to: soa, ...condensed(path) }]
  const records: ResponseRR[] = [soa]
  for (const d of differences) {
    records.push(d.from, ...d.deleted, d.to, ...d.added)
  }
  records.push(soa)
  return { kind: 'incremental', records }
}
