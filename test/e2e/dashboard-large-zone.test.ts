/**
 * The dashboard with a 100,000-record zone in a real browser against the real stack
 * (./dashboard-session.ts): paging, sorting and searching stay responsive.
 */
import { describe, expect, it } from 'vitest'
import { call, page, pickZone, search, signIn, useDashboard } from './dashboard-session.ts'

useDashboard()

describe('dashboard', () => {
  it('pages, sorts and searches a 100,000-record zone', async () => {
    const big = (await call('POST', '/zones', { name: `big-${Date.now().toString(36)}.example` }))
      .result
    const CHUNK = 3500
    const TOTAL = 100_000
    for (let start = 0; start < TOTAL; start += CHUNK) {
      const posts = Array.from({ length: Math.min(CHUNK, TOTAL - start) }, (_, k) => {
        const i = start + k
        // 200 records a name, so each chunk touches few names and the zone builder's work stays small.
        return {
          type: 'TXT',
          name: `n${Math.floor(i / 200)}`,
          content: `v${String(i).padStart(6, '0')}`,
        }
      })
      const env = await call('POST', `/zones/${big.id}/dns_records/batch`, { posts })
      expect(env.success, JSON.stringify(env.errors)).toBe(true)
    }
    await signIn(page, null)
    await pickZone(page, big.name)
    await expect
      .poll(() => page.locator('.page-info').innerText(), { timeout: 15_000 })
      .toContain('100,000 total')
    const timed = async (what: () => Promise<void>) => {
      const t = Date.now()
      await what()
      return Date.now() - t
    }
    const last = await timed(async () => {
      await page.getByRole('button', { name: 'Last page' }).click()
      await expect
        .poll(() => page.locator('.page-info').innerText(), { timeout: 15_000 })
        .toContain('Page 2,000 of 2,000')
    })
    const sorted = await timed(async () => {
      await page.getByRole('button', { name: /^Content/ }).click()
      await page.getByRole('button', { name: /^Content/ }).click()
      await expect
        .poll(() => page.locator('table.records tbody tr').first().innerText(), { timeout: 15_000 })
        .toContain('v099999')
    })
    const found = await timed(async () => {
      await search('v054321', 1)
    })
    expect(await page.locator('table.records').innerText()).toContain(`n271.${big.name}`)
    // Responsive: each step answers within a couple of seconds even on a loaded 2-core machine.
    expect(Math.max(last, sorted, found)).toBeLessThan(8_000)
    await call('DELETE', `/zones/${big.id}`)
  }, 120_000)
})
