/**
 * @module Shadow metadata from the NS records above a page, and the plans of the shadow queries:
 * each reads index ranges or name lookups, never the whole zone.
 */
import { env } from 'cloudflare:workers'
import { describe, expect, it } from 'vitest'
import { parseListQuery } from './list-query.ts'
import type { DnsRecord } from './model.ts'
import {
  computeShadowMeta,
  NS_AT_OR_ABOVE,
  SHADOW_META_MAX_RECORDS,
  SHADOWED_COUNT_CAP,
  SHADOWED_COUNTS,
  shadowMeta,
} from './shadow-meta.ts'

const ZONE = 'example.com'

function rec(id: string, type: string, name: string, content = ''): DnsRecord {
  return {
    id,
    zoneId: 'z',
    name: name === '@' ? ZONE : `${name}.${ZONE}`,
    type: type as DnsRecord['type'],
    content,
    data: null,
    priority: null,
    ttl: 1,
    proxied: false,
    comment: null,
    tags: [],
    settings: {},
    createdOn: '',
    modifiedOn: '',
    commentModifiedOn: null,
    tagsModifiedOn: null,
  }
}
const ns = (id: string, name: string, target: string) => ({
  id,
  name: `${name}.${ZONE}`,
  content: `${target}.${ZONE}`,
})

describe('computeShadowMeta', () => {
  it('names the shadowing NS records, shallowest first, and leaves the cut’s own types alone', () => {
    const nsRows = [ns('n1', 'a', 'ns.a'), ns('n2', 'a', 'ns2.a'), ns('n3', 'b.a', 'ns.b.a')]
    const records = [
      rec('r1', 'NS', 'a', `ns.a.${ZONE}`),
      rec('r2', 'DS', 'a'),
      rec('r3', 'NSEC', 'a'),
      rec('r4', 'TXT', 'a'),
      rec('r5', 'MX', 'x.b.a'),
      rec('r6', 'TXT', '@'),
    ]
    const meta = computeShadowMeta(ZONE, records, nsRows, new Map([[`a.${ZONE}`, 7]]))
    expect(Object.fromEntries(meta)).toEqual({
      r1: { shadowed_records_count: 7 },
      r4: { shadowed_by: ['n1', 'n2'] },
      r5: { shadowed_by: ['n1', 'n2', 'n3'] },
    })
  })

  it('marks glue, and glue only a deeper delegation needs as dead', () => {
    const nsRows = [ns('n1', 'a', 'ns.a'), ns('n2', 'b.a', 'ns.b.a'), ns('n3', 'c', 'ns.a')]
    const records = [
      rec('g1', 'A', 'ns.a', '192.0.2.1'),
      rec('g2', 'AAAA', 'ns.b.a', '2001:db8::1'),
      rec('t1', 'TXT', 'ns.b.a', 'not glue: not an address'),
    ]
    expect(Object.fromEntries(computeShadowMeta(ZONE, records, nsRows, new Map()))).toEqual({
      g1: { shadowed_by: ['n1'], is_glue: true },
      g2: { shadowed_by: ['n1', 'n2'], is_glue: true, dead_glue: true },
      t1: { shadowed_by: ['n1', 'n2'] },
    })
  })

  it('gives no count to the apex NS records, nor a zero count', () => {
    const records = [rec('a1', 'NS', '@', 'ns.example.net'), rec('d1', 'NS', 'd', 'ns.example.net')]
    const counts = new Map([
      [ZONE, 5],
      [`d.${ZONE}`, 0],
    ])
    expect(computeShadowMeta(ZONE, records, [], counts).size).toBe(0)
  })
})

describe('shadowMeta', () => {
  it('computes nothing, and reads nothing, for more than the page limit of records', async () => {
    const many = Array.from({ length: SHADOW_META_MAX_RECORDS + 1 }, (_, i) =>
      rec(`r${i}`, 'A', `h${i}`, '192.0.2.1')
    )
    const unread = {} as D1Database
    expect(await shadowMeta(unread, { id: 'z', name: ZONE }, many)).toBeNull()
    expect(await shadowMeta(unread, { id: 'z', name: ZONE }, [rec('r', 'A', '@')])).toEqual(
      new Map()
    )
  })
})

async function plan(sql: string, params: unknown[]): Promise<string> {
  const { results } = await env.DB.prepare(`EXPLAIN QUERY PLAN ${sql}`)
    .bind(...params)
    .all<{ detail: string }>()
  return results.map((r) => r.detail).join('\n')
}

describe('shadow query plans', () => {
  const zone = { id: 'z', name: ZONE }
  const listPlan = (query: Record<string, string>) => {
    const q = parseListQuery((k) => (query[k] === undefined ? [] : [query[k]]), zone)
    return plan(
      `SELECT * FROM dns_records WHERE ${q.where} ORDER BY ${q.orderBy} LIMIT 100`,
      q.params
    )
  }

  it('shadowed_by_name reads the range of names below the delegation', async () => {
    const p = await listPlan({ include_shadow_metadata: 'true', shadowed_by_name: `a.${ZONE}` })
    expect(p).toMatch(
      /SEARCH dns_records USING INDEX dns_records_identity \(zone_id=\? AND name_rev>\? AND name_rev<\?\)/
    )
    expect(p).not.toMatch(/^SCAN dns_records/m)
  })

  it('shadowing_name looks up each enclosing name', async () => {
    const p = await listPlan({ shadowing_name: `x.a.${ZONE}` })
    expect(p).toMatch(
      /SEARCH dns_records USING INDEX dns_records_\w+ \(zone_id=\? AND (name_rev|type)=\?/
    )
    expect(p).not.toMatch(/^SCAN dns_records/m)
  })

  it('the NS records above a page are name lookups, the counts are ranges', async () => {
    const above = await plan(NS_AT_OR_ABOVE, ['z', '[]', ZONE.length])
    expect(above).toMatch(
      /SEARCH dns_records USING INDEX dns_records_zone_type \(zone_id=\? AND type=\? AND name=\?\)/
    )
    const counts = await plan(SHADOWED_COUNTS, ['z', '[]'])
    expect(counts).toMatch(
      /SEARCH dns_records USING COVERING INDEX dns_records_identity \(zone_id=\? AND name_rev>\? AND name_rev<\?\)/
    )
    // Each count stops at the cap: a delegation over a large subtree costs no more than the cap.
    expect(SHADOWED_COUNTS).toContain(`LIMIT ${SHADOWED_COUNT_CAP})`)
  })
})
