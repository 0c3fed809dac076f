/**
 * Property: any record the API accepts exports to a zone file that BIND's named-checkzone accepts,
 * and the API's import reads that file back to the same records. Records come from the shared
 * adversarial generators (every type; quotes, backslashes, semicolons, parentheses, blanks,
 * non-ASCII, empty and 255/256-octet strings in TXT, CAA, SVCB/HTTPS, NAPTR and URI values), with
 * adversarial comments and tags. They are validated by the API's own buildRecord, written by its
 * zone exporter and read by the import route's parser and mapper, in process; each run's records
 * share one zone file, so each run costs one named-checkzone call.
 */
import { spawnSync } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { encodeRdata } from '../../packages/dns-wire/src/index.ts'
import { RecordError, toPresentation, TYPE_CODES } from '../../packages/records/src/index.ts'
import { parseZoneFile } from '../../packages/zonefile/src/index.ts'
import fc from 'fast-check'
import { afterAll, describe, expect, it } from 'vitest'
import { anyRecord, nastyText } from '../../packages/records/src/test-helpers/arbitrary-records.ts'
import { buildRecord, type RecordFieldsInput } from '../../workers/api/src/records/input.ts'
import type { DnsRecord } from '../../workers/api/src/records/model.ts'
import { newZoneRow } from '../../workers/api/src/zones/new-zone.ts'
import { mapEntries } from '../../workers/api/src/zonefile-bridge/entries.ts'
import { exportZone } from '../../workers/api/src/zonefile-bridge/export-zone.ts'

const ZONE = 'prop.example'
const NAME_SERVERS = ['ns1.edgedns.dev', 'ns2.edgedns.dev']
const ctx = { zoneId: 'z'.repeat(32), zoneName: ZONE, now: '2026-01-01T00:00:00.000Z' }
const zoneRow = newZoneRow({
  id: ctx.zoneId,
  accountId: 'a'.repeat(32),
  name: ZONE,
  type: 'full',
  nameServers: NAME_SERVERS,
  proxyIpv4: [],
  proxyIpv6: [],
  pending: false,
  verificationKey: 'k'.repeat(32),
  now: ctx.now,
})

const dir = mkdtempSync(path.join(tmpdir(), 'edgedns-zone-property-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

function hasCheckzone(): boolean {
  return spawnSync('named-checkzone', ['-v'], { stdio: 'pipe' }).status === 0
}

const comment = fc.option(
  fc.oneof(
    nastyText,
    fc.constantFrom('web', ' padded ', 'x cf_tags=a', 'cf_tags=', 'a;b', 'tail\\', 'q"uote')
  ),
  { nil: undefined }
)
const tags = fc.array(
  fc
    .tuple(
      fc.constantFrom('env', 'team', 'cf-proxied', 'cf-flatten-cname', 'cf_tags'),
      fc.option(fc.oneof(nastyText, fc.constantFrom('prod', 'a,b', 'true', '')), { nil: undefined })
    )
    .map(([n, v]) => (v === undefined ? n : `${n}:${v}`)),
  { maxLength: 3 }
)

const input = fc.record({
  fields: anyRecord,
  ttl: fc.constantFrom(1, 60, 300, 86400),
  proxied: fc.boolean(),
  comment,
  tags,
})

/** What the API stores for an input, or null when it refuses it. */
function accept(f: RecordFieldsInput, i: number): DnsRecord | null {
  try {
    return buildRecord({ ...f, name: `r${i}.${ZONE}` }, ctx, String(i).padStart(32, '0'))
  } catch (e) {
    if (e instanceof RecordError) return null
    throw e
  }
}

const hex = (b: Uint8Array) => Array.from(b, (x) => x.toString(16).padStart(2, '0')).join('')

/**
 * The fields a zone file carries; TTL 1 (automatic) is exported as the 300 seconds it serves. TXT
 * content may be spelled differently after the round trip (kept as sent on create, written from
 * the file's character-strings on import): it is the same record when its wire octets are.
 */
const carried = (r: DnsRecord) => ({
  name: r.name,
  type: r.type,
  content: r.type === 'TXT' ? hex(encodeRdata(TYPE_CODES.TXT, toPresentation(r))) : r.content,
  data: r.data,
  priority: r.priority,
  ttl: r.ttl === 1 ? 300 : r.ttl,
  proxied: r.proxied,
  comment: r.comment,
  tags: r.tags,
  settings: r.settings,
})

/**
 * BIND's hostname policy (check-names) is a warning here, not a failure: the API accepts `_` in
 * labels of names and targets (as Cloudflare does), which that policy refuses for the owners of
 * A, AAAA and MX records and the targets of NS, MX and SRV records. Every other check fails.
 */
function checkzone(text: string): { status: number | null; output: string } {
  const file = path.join(dir, 'zone.db')
  writeFileSync(file, text)
  const r = spawnSync('named-checkzone', ['-i', 'full', '-k', 'warn', '-n', 'fail', ZONE, file], {
    encoding: 'utf8',
  })
  return { status: r.status, output: `${r.stdout}\n${r.stderr}` }
}

describe('accepted records → export → named-checkzone → import', () => {
  it.runIf(hasCheckzone() || process.env.CI)(
    'BIND accepts every export and the import gives the same records',
    () => {
      fc.assert(
        fc.property(fc.array(input, { minLength: 1, maxLength: 120 }), (inputs) => {
          const records = inputs
            .map((x, i) =>
              accept(
                { ...x.fields, ttl: x.ttl, proxied: x.proxied, comment: x.comment, tags: x.tags },
                i
              )
            )
            .filter((r): r is DnsRecord => r !== null)
          const text = exportZone(zoneRow, records, new Date(ctx.now))
          const check = checkzone(text)
          expect(check.status, `${check.output}\n--- zone file ---\n${text}`).toBe(0)

          const entries = parseZoneFile(text, { origin: ZONE, defaultTtl: 1 })
          const mapped = mapEntries(
            entries,
            { name: ZONE, defaultNameServers: NAME_SERVERS },
            false,
            ctx
          )
          const back = mapped.items.map((item, i) =>
            carried(buildRecord(item.fields, ctx, String(i).padStart(32, '0')))
          )
          const byName = (a: { name: string }, b: { name: string }) => (a.name < b.name ? -1 : 1)
          expect(back.sort(byName), text).toEqual(records.map(carried).sort(byName))
        }),
        { numRuns: 40 }
      )
    }
  )
})
