/** The dashboard at phone width in a real browser against the real stack (./dashboard-session.ts). */
import { describe, expect, it } from 'vitest'
import { browser, pickZone, SHOTS, signIn, useDashboard, zone } from './dashboard-session.ts'

useDashboard()

describe('dashboard', () => {
  it('is usable at phone width', async () => {
    const phone = await browser.newContext({
      viewport: { width: 390, height: 844 },
      isMobile: true,
      hasTouch: true,
    })
    const p = await phone.newPage()
    try {
      await signIn(p, null)
      await p.keyboard.press('Tab')
      expect(await p.evaluate('document.activeElement?.textContent')).toBe('Skip to content')
      await pickZone(p, zone.name)
      await expect.poll(() => p.locator('table.records').innerText()).toContain('bulk-000')
      const overflow = (await p.evaluate(
        'document.documentElement.scrollWidth - window.innerWidth'
      )) as number
      expect(overflow).toBeLessThanOrEqual(0)
      await p.screenshot({ path: `${SHOTS}/phone.png`, fullPage: false })
      // The zone transfer page's tables scroll in their own boxes, not the page.
      await p
        .getByRole('navigation', { name: 'Zone sections' })
        .getByRole('button', { name: 'Zone transfers' })
        .click()
      // Every card loaded before measuring: the zone's, the account's lists and its catalog.
      await p.getByRole('heading', { name: 'Outgoing transfers' }).waitFor()
      await p.getByRole('group', { name: 'Catalog zone' }).getByLabel('Catalog zone name').waitFor()
      expect(
        (await p.evaluate('document.documentElement.scrollWidth - window.innerWidth')) as number
      ).toBeLessThanOrEqual(0)
    } finally {
      await phone.close()
    }
  })
})
