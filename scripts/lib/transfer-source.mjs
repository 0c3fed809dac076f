/**
 * @module Where the local DNS front gets a zone to transfer: the API's zone export (BIND text),
 * parsed with `@edgedns/zonefile`, as `@edgedns/zone-transfer` wants it (SOA, records). The
 * export has absolute names everywhere, so its rdata is used as written.
 */
import { typeFromName } from '../../packages/dns-facts/src/index.ts'
import { parseZoneFile } from '../../packages/zonefile/src/index.ts'

async function api(target, token, path) {
  const res = await fetch(`${target}/client/v4${path}`, {
    headers: { authorization: `Bearer ${token}` },
  })
  if (!res.ok) throw new Error(`API answered HTTP ${res.status} for ${path}`)
  return res
}

/** The records of a BIND export as transfer records: `{ soa, records }`. */
function exportToTransferZone(name, text) {
  const entries = parseZoneFile(text, { origin: name })
  const rrs = entries.map((e) => ({
    name: e.name,
    type: typeFromName(e.type),
    ttl: e.ttl,
    rdata: e.rdata,
  }))
  const soa = rrs.find((rr) => rr.type === 6)
  if (!soa) throw new Error(`the export of ${name} has no SOA`)
  return { soa, records: () => rrs }
}

/**
 * `findZone(name)` for `answerTransfer`: the zone of that name in the stack at `target` (looked up
 * with `token`), or null when there is none.
 */
export function apiTransferSource({ target, token }) {
  return async (name) => {
    const found = await (await api(target, token, `/zones?name=${encodeURIComponent(name)}`)).json()
    const zone = found.result?.find((z) => z.name === name)
    if (!zone) return null
    const text = await (await api(target, token, `/zones/${zone.id}/dns_records/export`)).text()
    return exportToTransferZone(name, text)
  }
}
