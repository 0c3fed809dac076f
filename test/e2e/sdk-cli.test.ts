/**
 * The edgedns CLI (packages/sdk/bin/edgedns.mjs, run by Node 22 with type stripping) against the
 * stack: import by zone name, export to a file, apply a chunked batch with progress, query.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { EdgeDns } from '@edgedns/sdk'
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest'
import { edgedns } from './tools/edgedns-cli.ts'

const dir = mkdtempSync(path.join(tmpdir(), 'edgedns-cli-'))
let zone = ''
const cli = edgedns

beforeAll(async () => {
  zone = `cli-${Date.now().toString(36)}.example`
  await new EdgeDns({ baseUrl: inject('stackBase'), token: inject('stackToken') }).zones.create({
    name: zone,
  })
})
afterAll(() => rmSync(dir, { recursive: true, force: true }))

describe('edgedns CLI', () => {
  it('imports a zone file by zone name and exports it to a file', () => {
    const file = path.join(dir, 'in.zone')
    writeFileSync(file, '$TTL 300\nwww A 192.0.2.1\n$GENERATE 1-20 h$ A 198.51.100.$\n')
    const imp = cli('import', zone, file)
    expect(imp.code, imp.err).toBe(0)
    expect(JSON.parse(imp.out)).toMatchObject({ recs_added: 21, total_records_parsed: 21 })
    expect(imp.err).toContain('imported: 21 added of 21 parsed')
    const out = path.join(dir, 'out.zone')
    expect(cli('export', zone, '-o', out).code).toBe(0)
    expect(readFileSync(out, 'utf8')).toContain(`h20.${zone}.\t300\tIN\tA\t198.51.100.20`)
  })

  it('applies a batch file in chunks with a progress line per chunk', () => {
    const batch = path.join(dir, 'batch.json')
    writeFileSync(
      batch,
      JSON.stringify({
        posts: Array.from({ length: 5 }, (_, i) => ({
          type: 'TXT',
          name: `t${i}`,
          content: `n${i}`,
        })),
      })
    )
    const res = cli('apply', zone, batch, '--chunk', '2', '--wait', '--timeout', '30')
    expect(res.code, res.err).toBe(0)
    expect(JSON.parse(res.out)).toMatchObject({ posts: 5 })
    expect(res.err.split('\n').filter((l) => l.startsWith('apply '))).toHaveLength(3)
    expect(res.err).toContain('100% 5/5 chunk 3/3')
  })

  it('queries over DoH and reports API errors with their code', () => {
    const q = cli('query', `www.${zone}`, 'A')
    expect(q.code, q.err).toBe(0)
    expect(q.out).toContain(`www.${zone}.\t300\tIN\tA\t192.0.2.1`)
    const bad = path.join(dir, 'bad.zone')
    writeFileSync(bad, 'a A 192.0.2.1\n$INCLUDE x\n')
    const res = cli('import', zone, bad)
    expect(res.code).toBe(1)
    expect(res.err).toContain(
      'line 2, column 1: $INCLUDE directive not allowed (api 400, code 81069)'
    )
    expect(cli('nope').code).toBe(2)
  })
})
