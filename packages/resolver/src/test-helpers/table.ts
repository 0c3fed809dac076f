/**
 * @module Test helper: compact expectations for table-driven resolver tests.
 */
import { typeFromName, typeName } from '@edgedns/dns-wire'
import { resolve } from '../resolve.ts'
import type { RR, Resolution, ZoneView } from '../types.ts'

/** An RR as one line: `www.example.com 300 A 192.0.2.1`. */
function line(rr: RR): string {
  return `${rr.name} ${rr.ttl} ${typeName(rr.type)} ${rr.rdata}`
}

export interface Outcome {
  rcode: Resolution['rcode']
  aa: boolean
  answer: string[]
  authority: string[]
  additional: string[]
}

/** Resolves `name`/`type` (type mnemonic) and returns the result as sorted lines per section. */
export async function ask(view: ZoneView, name: string, type: string): Promise<Outcome> {
  const code = typeFromName(type)
  if (code === undefined) throw new Error(`unknown type ${type}`)
  const r = await resolve(view, { name, type: code })
  return {
    rcode: r.rcode,
    aa: r.aa,
    answer: r.answer.map(line),
    authority: r.authority.map(line),
    additional: r.additional.map(line).sort(),
  }
}

export interface Case {
  name: string
  qname: string
  qtype: string
  rcode?: Resolution['rcode']
  aa?: boolean
  answer?: string[]
  authority?: string[]
  additional?: string[]
}

/** Expected outcome with defaults: NOERROR, AA, empty sections. */
export function expected(c: Case): Outcome {
  return {
    rcode: c.rcode ?? 'NOERROR',
    aa: c.aa ?? true,
    answer: c.answer ?? [],
    authority: c.authority ?? [],
    additional: [...(c.additional ?? [])].sort(),
  }
}
