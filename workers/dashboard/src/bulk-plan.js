/**
 * @module Turns a bulk action on selected records into ONE batch body, the exact list of changes
 * for the confirmation, and the records it leaves as they are (with why). `items[i]` is the record
 * behind `/deletes/i` or `/patches/i`, so a batch error's `source.pointer` names its record.
 */
import { describeRecord } from './record-types.js'

export function planBulk(action, records) {
  const items = []
  const lines = []
  const unchanged = []
  if (action.kind === 'delete') {
    for (const r of records) {
      items.push(r)
      lines.push(`Delete ${describeRecord(r)}`)
    }
    return {
      title: `Delete ${items.length} record${items.length === 1 ? '' : 's'}`,
      body: { deletes: items.map((r) => ({ id: r.id })) },
      items,
      lines,
      unchanged,
      key: 'deletes',
    }
  }
  const patches = []
  for (const r of records) {
    if (action.kind === 'proxy') {
      if (!r.proxiable) unchanged.push(`${describeRecord(r)} — cannot be proxied`)
      else if (r.proxied === action.on)
        unchanged.push(`${describeRecord(r)} — already ${action.on ? 'proxied' : 'DNS only'}`)
      else {
        items.push(r)
        patches.push({ id: r.id, proxied: action.on })
        lines.push(`${action.on ? 'Proxy' : 'Stop proxying'} ${describeRecord(r)}`)
      }
    } else if (action.kind === 'ttl') {
      if (r.ttl === action.ttl)
        unchanged.push(`${describeRecord(r)} — TTL already ${ttlText(action.ttl)}`)
      else {
        items.push(r)
        patches.push({ id: r.id, ttl: action.ttl })
        lines.push(`TTL ${ttlText(r.ttl)} → ${ttlText(action.ttl)}: ${describeRecord(r)}`)
      }
    }
  }
  const what =
    action.kind === 'ttl'
      ? `Set TTL to ${ttlText(action.ttl)} on`
      : action.on
        ? 'Turn proxy on for'
        : 'Turn proxy off for'
  return {
    title: `${what} ${items.length} record${items.length === 1 ? '' : 's'}`,
    body: { patches },
    items,
    lines,
    unchanged,
    key: 'patches',
  }
}

export function ttlText(ttl) {
  return ttl === 1 ? 'Auto' : `${ttl} s`
}

/** "A www.example.com 192.0.2.1: <message>" for each batch error, using its source.pointer. */
export function describeBatchErrors(failure, plan) {
  return failure.errors.map((e) => {
    const m = /^\/(deletes|patches|puts|posts)\/(\d+)/.exec(e.source?.pointer ?? '')
    const r = m ? plan.items[Number(m[2])] : undefined
    const where = m ? `${e.source.pointer}${r ? ` (${describeRecord(r)})` : ''}: ` : ''
    return `${where}${e.message} (code ${e.code})`
  })
}
