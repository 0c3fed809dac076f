/**
 * Zone files of the e2e transfer tests: our export of a zone written to a file, and a zone file in
 * BIND's canonical form, to compare what a secondary or primary holds with what we hold.
 */
import { execFileSync } from 'node:child_process'
import { writeFileSync } from 'node:fs'
import { inject } from 'vitest'

/** The zone file at `file` in BIND's canonical form (`named-checkzone -D`), without comment lines. */
export function canonicalZone(name: string, file: string): string[] {
  const out = execFileSync('named-checkzone', ['-D', '-q', '-o', '-', name, file], {
    encoding: 'utf8',
  })
  return out.split('\n').filter((l) => l && !l.startsWith(';'))
}

/** The zone's export (`GET …/dns_records/export`) written to `file`; returns `file`. */
export async function exportZoneFile(zoneId: string, file: string): Promise<string> {
  const res = await fetch(`${inject('stackBase')}/client/v4/zones/${zoneId}/dns_records/export`, {
    headers: { authorization: `Bearer ${inject('stackToken')}` },
  })
  writeFileSync(file, await res.text())
  return file
}
