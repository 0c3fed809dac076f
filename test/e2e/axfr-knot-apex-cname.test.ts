/**
 * Knot DNS as a secondary of a zone whose apex is a CNAME (Cloudflare's CNAME flattening): the
 * transfers leave the CNAME out (Knot refused the zone when they carried it, and stayed on its old
 * serial), so Knot loads the zone, follows later changes by IXFR, a change of the apex CNAME
 * alone (a difference of two SOAs) included, and serves exactly our export, where the apex CNAME
 * is a comment line. Knot is configured as in axfr-knot.test.ts.
 */
import { existsSync } from 'node:fs'
import { expect } from 'vitest'
import { knotConfig } from './tools/knot-config.ts'
import { waitFor } from './tools/processes.ts'
import { describeSecondaryOfOurs } from './tools/secondary-of-ours.ts'
import { stackApi } from './tools/stack-api.ts'

const file = (name: string): string => `$ORIGIN ${name}.
@     300 IN CNAME target.example.net.
www   300 IN A 192.0.2.1
mail  300 IN MX 10 www
`

/** The apex CNAME's content set to `target`. */
async function pointApexAt(zone: string, zoneId: string, target: string): Promise<void> {
  const [apex] = (await stackApi('GET', `/zones/${zoneId}/dns_records?type=CNAME&name=${zone}`))
    .result
  await stackApi('PATCH', `/zones/${zoneId}/dns_records/${apex.id}`, { content: target })
}

describeSecondaryOfOurs({
  title: 'Knot DNS (apex CNAME)',
  binary: ['/usr/sbin/knotd', '/usr/bin/knotd'].find(existsSync),
  tag: 'knot-apex',
  secret: 'a25vdC1zZWNyZXQtZm9yLXRoZS1hcGV4LWNuYW1lLTMy',
  configure: knotConfig,
  zone: {
    file,
    records: 3,
    moreChanges: [({ zone, zoneId }) => pointApexAt(zone, zoneId, 'other.example.net')],
  },
  async followedChange({ since }) {
    expect(await waitFor(() => /IXFR, incoming.*finished/.test(since()), 10_000), since()).toBe(
      true
    )
  },
})
