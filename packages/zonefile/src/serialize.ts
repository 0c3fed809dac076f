/**
 * @module serialize — serializeZoneFile: writes records as a BIND master file that
 * `named-checkzone` accepts: `$ORIGIN`, `$TTL`, SOA first, then canonical name order and type
 * order, one record per line with absolute owner, explicit TTL, class IN and optional `; comment`.
 * A CNAME at the apex, which no server loads beside the SOA and NS, is a comment line an import
 * reads back (apex-cname.ts).
 */
import { APEX_CNAME_MARK } from './apex-cname.ts'
import { canonicalLabels, compareLabels, typeOrder } from './canonical.ts'
import { MAX_TTL } from './ttl.ts'
import { endsWithUnescapedDot, fqdn, normalizeOrigin, resolveName } from './names.ts'

export interface SerializeRecord {
  /** Absolute owner name, no trailing dot needed ('.' or '' for the root). */
  name: string
  ttl: number
  type: string
  /** Presentation rdata, names absolute with trailing dot, TXT already quoted. Single line. */
  rdata: string
  /** Written after the record as `; <comment>`; line breaks become spaces. */
  comment?: string
  /**
   * Why the record cannot be written: the line is then a comment naming the record and this reason
   * (`; skipped: <owner> <ttl> IN <type>: <reason>`), in the record's place; `rdata` is not read.
   */
  skipped?: string
}

export interface SerializeZone {
  origin: string
  soa?: SerializeRecord
  records: SerializeRecord[]
  /** Free text written as `;` comment lines at the top. */
  header?: string
}

const DEFAULT_TTL = 3600

function ownerOf(name: string): string {
  const text = name === '' || endsWithUnescapedDot(name) ? name || '.' : `${name}.`
  const absolute = resolveName(text, '')
  if (absolute === undefined || /[\s;()"]/.test(name)) {
    throw new TypeError(`cannot serialize owner name "${name}"`)
  }
  return absolute
}

function recordLine(r: SerializeRecord, apexCname = false): string {
  if (!Number.isInteger(r.ttl) || r.ttl < 0 || r.ttl > MAX_TTL) {
    throw new TypeError(`cannot serialize TTL ${r.ttl} of ${r.name} ${r.type}`)
  }
  if (!/^[A-Za-z][A-Za-z0-9-]*$/.test(r.type)) throw new TypeError(`bad record type "${r.type}"`)
  if (r.skipped !== undefined) {
    const why = r.skipped.replace(/[\r\n]+/g, ' ').trim()
    return `; skipped: ${fqdn(ownerOf(r.name))} ${r.ttl} IN ${r.type.toUpperCase()}: ${why}`
  }
  if (/[\r\n]/.test(r.rdata) || r.rdata.trim() === '') {
    throw new TypeError(`cannot serialize rdata of ${r.name} ${r.type}`)
  }
  const line = `${fqdn(ownerOf(r.name))}\t${r.ttl}\tIN\t${r.type.toUpperCase()}\t${r.rdata.trim()}`
  const comment = r.comment?.replace(/[\r\n]+/g, ' ').trim()
  const written = comment ? `${line} ; ${comment}` : line
  return apexCname ? `${APEX_CNAME_MARK}${written}` : written
}

/** Whether `r` (owner `labels`) is a CNAME at the apex (`apex`, the origin's labels). */
const isApexCname = (r: SerializeRecord, labels: string[], apex: string[]): boolean =>
  r.type.toUpperCase() === 'CNAME' && compareLabels(labels, apex) === 0

/** Serializes a zone to BIND master-file text (LF line endings, trailing newline). */
export function serializeZoneFile(zone: SerializeZone): string {
  const origin = normalizeOrigin(zone.origin)
  const lines: string[] = []
  for (const text of zone.header?.split(/\r?\n/) ?? []) lines.push(text ? `; ${text}` : ';')
  lines.push(`$ORIGIN ${fqdn(origin)}`)
  lines.push(`$TTL ${zone.soa?.ttl ?? zone.records[0]?.ttl ?? DEFAULT_TTL}`)
  if (zone.soa) lines.push(recordLine(zone.soa))
  const keyed = zone.records.map((record, index) => ({
    record,
    index,
    labels: canonicalLabels(ownerOf(record.name)),
    type: typeOrder(record.type),
  }))
  keyed.sort(
    (a, b) =>
      compareLabels(a.labels, b.labels) ||
      a.type - b.type ||
      (a.record.type < b.record.type ? -1 : a.record.type > b.record.type ? 1 : 0) ||
      a.index - b.index
  )
  const apex = canonicalLabels(origin)
  for (const { record, labels } of keyed)
    lines.push(recordLine(record, isApexCname(record, labels, apex)))
  return lines.join('\n') + '\n'
}
