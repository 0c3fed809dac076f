/**
 * The dashboard in a real browser (Debian's chromium through playwright-core) against the real stack.
 */
import { existsSync, mkdirSync } from 'node:fs'
import { chromium, type Browser, type Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest'

const CHROMIUM = '/usr/bin/chromium'
const base = inject('stackBase')
const token = inject('stackToken')
let browser: Browser
let page: Page
let zoneName = ''

async function call(method: string, path: string, body?: object): Promise<any> {
  const res = await fetch(`${base}/client/v4${path}`, { method, headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: body ? JSON.stringify(body) : undefined })
  return ((await res.json()) as { result: any }).result
}

beforeAll(async () => {
  if (!existsSync(CHROMIUM)) throw new Error('chromium is not installed: apt-get install chromium (.ci/run does this)')
  zoneName = `ui-${Date.now().toString(36)}.example`
  const zone = await call('POST', '/zones', { name: zoneName })
  await call('POST', `/zones/${zone.id}/dns_records`, { type: 'A', name: 'www', content: '192.0.2.80' })
  browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] })
  page = await browser.newPage()
  await page.goto(`${base}/?token=${token}`)
})

afterAll(async () => {
  await browser?.close()
})

describe('dashboard', () => {
  it('lists zones and shows a zone\'s records', async () => {
    await page.getByRole('button', { name: zoneName, exact: true }).click()
    await expect.poll(() => page.locator('#records').innerText()).toContain(`www.${zoneName}`)
    expect(await page.locator('#page-info').innerText()).toMatch(/1 records|records/)
  })

  it('adds a record through the form', async () => {
    await page.selectOption('#rec-type', 'TXT')
    await page.fill('#rec-name', 'ui-added')
    await page.fill('#rec-content', 'hello from the browser')
    await page.click('#record-form button[type=submit]')
    await expect.poll(() => page.locator('#records').innerText()).toContain(`ui-added.${zoneName}`)
  })

  it('shows a rejected batch as an error and changes nothing', async () => {
    await page.fill('#batch-body', JSON.stringify({ posts: [{ type: 'A', name: 'ok', content: '192.0.2.1' }, { type: 'A', name: 'bad', content: 'nope' }] }))
    await page.click('#batch-form button[type=submit]')
    await expect.poll(() => page.locator('#toast').innerText()).toMatch(/Batch rejected.*9005.*\/posts\/1/)
    expect(await page.locator('#records').innerText()).not.toContain(`ok.${zoneName}`)
    mkdirSync('test/e2e/.artifacts', { recursive: true })
    await page.screenshot({ path: 'test/e2e/.artifacts/dashboard.png', fullPage: true })
  })

  it('resolves a name through DoH from the query box', async () => {
    await page.fill('#q-name', `www.${zoneName}`)
    await page.fill('#q-type', 'A')
    await expect
      .poll(
        async () => {
          await page.click('#query-form button[type=submit]')
          return page.locator('#q-result').innerText()
        },
        { timeout: 20_000, interval: 500 }
      )
      .toContain('192.0.2.80')
  })
})
