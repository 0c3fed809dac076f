/**
 * Knot DNS (`knotd`) as a secondary of one of our zones, beside the BIND test
 * (tools/secondary-of-ours.ts): the first transfer through the DNS front, then a change announced
 * by NOTIFY and pulled by IXFR.
 */
import { existsSync } from 'node:fs'
import { expect } from 'vitest'
import { waitFor } from './tools/processes.ts'
import { knotConfig } from './tools/knot-config.ts'
import { describeSecondaryOfOurs } from './tools/secondary-of-ours.ts'

describeSecondaryOfOurs({
  title: 'Knot DNS',
  binary: ['/usr/sbin/knotd', '/usr/bin/knotd'].find(existsSync),
  tag: 'knot',
  secret: 'a25vdC1zZWNyZXQtZm9yLXRoZS1heGZyLXRlc3QtMzI=',
  configure: knotConfig,
  async followedChange({ since }) {
    expect(await waitFor(() => /IXFR, incoming.*finished/.test(since()), 10_000), since()).toBe(
      true
    )
    expect(since()).toMatch(/notify, incoming/)
    // Applied as an IXFR, not stored in vain and pulled again whole.
    expect(since()).not.toMatch(/failed|AXFR, incoming/)
  },
})
