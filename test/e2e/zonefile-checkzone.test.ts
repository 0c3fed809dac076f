/**
 * The export of a zone that uses every type and directive passes BIND's named-checkzone, and
 * re-importing it into a fresh zone of the same name gives the same records (real local stack).
 */
import { execFileSync, spawnSync } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { EdgeDns, collect } from '@edgedns/sdk'
import { afterAll, describe, expect, inject, it } from 'vitest'
import { comparable, EVERY_TYPE_RECORDS, everyTypeZone } from '../api/import-export-fixture.ts'

const client = new EdgeDns({ baseUrl: inject('stackBase'), token: inject('stackToken') })
const dir = mkdtempSync(path.join(tmpdir(), 'edgedns-checkzone-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

function hasCheckzone(): boolean {
  try {
    execFileSync('named-checkzone', ['-v'], { stdio: 'pipe' })
    return true
  } catch {
    return false
  }
}

describe('export → named-checkzone → re-import', () => {
  it.runIf(hasCheckzone() || process.env.CI)(
    'named-checkzone accepts the export and the re-import matches',
    async () => {
      const name = `checkzone-${Date.now().toString(36)}.example`
      const zone = await client.zones.create({ name })
      const imported = await client.records.import(zone.id, everyTypeZone(name))
      expect(imported.recs_added).toBe(EVERY_TYPE_RECORDS)
      const before = await collect(client.records.list(zone.id))

      const text = await client.records.export(zone.id)
      const file = path.join(dir, `${name}.zone`)
      writeFileSync(file, text)
      const check = spawnSync(
        'named-checkzone',
        ['-i', 'full', '-k', 'fail', '-n', 'fail', name, file],
        { encoding: 'utf8' }
      )
      expect(check.status, `${check.stdout}\n${check.stderr}\n--- zone file ---\n${text}`).toBe(0)
      expect(check.stdout).toMatch(/loaded serial \d+/)
      expect(check.stdout.trim().split('\n').at(-1)).toBe('OK')

      await client.zones.delete(zone.id)
      const again = await client.zones.create({ name })
      const second = await client.records.import(again.id, text)
      expect(second.recs_added).toBe(EVERY_TYPE_RECORDS)
      const after = await collect(client.records.list(again.id))
      expect(after.map(comparable).sort()).toEqual(before.map(comparable).sort())
    }
  )
})
