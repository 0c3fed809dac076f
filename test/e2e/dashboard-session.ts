/**
 * The dashboard e2e tests' browser session: Debian's chromium through playwright-core, headless,
 * against the real stack the e2e global setup starts; a seeded zone, the API called directly, and
 * the page steps the tests share. Screenshots go to docs/screenshots/.
 */
import { existsSync, mkdirSync } from 'node:fs'
import {
  chromium,
  type Browser,
  type BrowserContext,
  type Page,
  type Request,
} from 'playwright-core'
import { afterAll, beforeAll, expect, inject } from 'vitest'

const CHROMIUM = '/usr/bin/chromium'
export const SHOTS = 'docs/screenshots'
export const base = inject('stackBase')
export const token = inject('stackToken')

/** The browser, its desktop-sized page and the seeded zone, set by `useDashboard`. */
export let browser: Browser
let context: BrowserContext
export let page: Page
export let zone: { id: string; name: string }

interface Envelope {
  success: boolean
  result: any
  result_info?: any
  errors: { code: number; message: string }[]
}

export async function call(
  method: string,
  path: string,
  body?: object,
  bearer = token
): Promise<Envelope> {
  const res = await fetch(`${base}/client/v4${path}`, {
    method,
    headers: { authorization: `Bearer ${bearer}`, 'content-type': 'application/json' },
    body: body ? JSON.stringify(body) : undefined,
  })
  return (await res.json()) as Envelope
}

export async function records(query: string): Promise<any[]> {
  const env = await call('GET', `/zones/${zone.id}/dns_records?per_page=5000&${query}`)
  return env.result
}

export const shot = (name: string) => page.screenshot({ path: `${SHOTS}/${name}.png` })

/** Batch POSTs the page sends while `action` runs (and until the page settles). */
export async function batchCallsDuring(action: () => Promise<void>): Promise<Request[]> {
  const seen: Request[] = []
  const onRequest = (r: Request) => {
    if (r.method() === 'POST' && r.url().endsWith(`/zones/${zone.id}/dns_records/batch`))
      seen.push(r)
  }
  page.on('request', onRequest)
  try {
    await action()
    await page.waitForLoadState('networkidle')
  } finally {
    page.off('request', onRequest)
  }
  return seen
}

/** Searches and waits until the table shows the answer (`total` records). */
export async function search(text: string, total: number | null) {
  await page.getByLabel('Search', { exact: true }).fill(text)
  await page.getByRole('button', { name: 'Search', exact: true }).click()
  if (total === null) return
  // The count alone can be the previous search's (the same total): wait for rows of this search too,
  // and for the table to be done loading, before anything is clicked in it.
  await expect
    .poll(
      async () => {
        if ((await page.locator('table.records').getAttribute('aria-busy')) !== 'false')
          return false
        if (
          !new RegExp(`· ${total.toLocaleString('en')} total`).test(
            await page.locator('.page-info').innerText()
          )
        )
          return false
        const rows = await page.locator('table.records tbody tr').allInnerTexts()
        return (
          total === 0 ||
          (rows.length > 0 && rows.every((r) => r.toLowerCase().includes(text.toLowerCase())))
        )
      },
      { timeout: 15_000 }
    )
    .toBe(true)
}

export async function openAddForm(type: string) {
  await page.getByRole('button', { name: 'Add record', exact: true }).click()
  const dialog = page.getByRole('dialog', { name: 'Add record' })
  await dialog.getByLabel('Type').selectOption(type)
  return dialog
}

export async function signIn(p: Page, secret: string | null) {
  await p.goto(`${base}/`)
  if (secret === null) await p.getByRole('button', { name: 'Use the local dev token' }).click()
  else {
    await p.getByLabel('API token').fill(secret)
    await p.getByRole('button', { name: 'Sign in' }).click()
  }
  await p.getByLabel('Zone', { exact: true }).waitFor()
}

export async function pickZone(p: Page, name: string) {
  await p.getByLabel('Zone', { exact: true }).selectOption({ label: name })
  await p.getByRole('heading', { name: 'DNS records' }).waitFor()
}

/**
 * Registers the file's setup: a zone seeded with 75 records, and a headless chromium with one
 * desktop-sized page; the browser closes after the file.
 */
export function useDashboard(): void {
  beforeAll(async () => {
    if (!existsSync(CHROMIUM))
      throw new Error('chromium is not installed: apt-get install chromium (.ci/run does this)')
    mkdirSync(SHOTS, { recursive: true })
    const name = `ui-${Date.now().toString(36)}.example`
    zone = (await call('POST', '/zones', { name })).result
    const posts = [
      ...Array.from({ length: 60 }, (_, i) => ({
        type: 'A',
        name: `bulk-${String(i).padStart(3, '0')}`,
        content: `198.51.100.${i + 1}`,
        ttl: 300,
      })),
      ...Array.from({ length: 10 }, (_, i) => ({
        type: 'A',
        name: `px-${i}`,
        content: `203.0.113.${i + 1}`,
      })),
      { type: 'A', name: 'www', content: '192.0.2.80' },
      { type: 'A', name: 'edit-me', content: '192.0.2.10' },
      { type: 'TXT', name: 'ttl-a', content: 'one' },
      { type: 'TXT', name: 'ttl-b', content: 'two' },
      { type: 'CAA', name: '@', data: { flags: 0, tag: 'issue', value: 'letsencrypt.org' } },
    ]
    const seeded = await call('POST', `/zones/${zone.id}/dns_records/batch`, { posts })
    expect(seeded.success, JSON.stringify(seeded.errors)).toBe(true)
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      headless: true,
      args: ['--no-sandbox'],
    })
    context = await browser.newContext({
      viewport: { width: 1280, height: 860 },
      acceptDownloads: true,
    })
    page = await context.newPage()
  })

  afterAll(async () => {
    await browser?.close()
  })
}
