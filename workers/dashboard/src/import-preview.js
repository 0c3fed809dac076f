/** @module The import preview: parses the file with the BIND parser the API uses. */
import { parseZoneFile } from '@edgedns/zonefile'

/** What the import will create: entries, minus the SOA and the apex NS the zone keeps for itself. */
export function previewImport(text, zoneName) {
  const entries = parseZoneFile(text, { origin: zoneName, defaultTtl: 1 })
  const create = []
  const skipped = []
  for (const e of entries) {
    if (e.type === 'SOA' || (e.type === 'NS' && e.name === zoneName))
      skipped.push({
        ...e,
        why: e.type === 'SOA' ? 'the zone keeps its own SOA' : 'the zone keeps its own apex NS',
      })
    else create.push(e)
  }
  return { create, skipped }
}
