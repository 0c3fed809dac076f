/**
 * The dashboard in a real browser against the real stack (./dashboard-session.ts), one session
 * through its views in order: sign-in, bulk changes, record editing, import and export, settings,
 * audit log, query, API tokens and a pending zone. Screenshots of the main views go to
 * docs/screenshots/.
 */
import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import {
  base,
  batchCallsDuring,
  browser,
  call,
  openAddForm,
  page,
  pickZone,
  records,
  search,
  SHOTS,
  shot,
  signIn,
  token,
  useDashboard,
  zone,
} from './dashboard-session.ts'

useDashboard()

describe('dashboard', () => {
  it('asks for a token, offers the local dev token, and keeps the token out of the URL', async () => {
    await page.goto(`${base}/`)
    await page.getByRole('heading', { name: 'Sign in to edgedns' }).waitFor()
    await page.getByLabel('API token').fill('not-a-real-token')
    await page.getByRole('button', { name: 'Sign in' }).click()
    await expect.poll(() => page.getByRole('alert').innerText()).toMatch(/not valid/)
    await shot('login')
    await page.getByRole('button', { name: 'Use the local dev token' }).click()
    await page.getByLabel('Zone', { exact: true }).waitFor()
    expect(page.url()).toBe(`${base}/`)
    expect(await page.evaluate(() => sessionStorage.getItem('edgedns.token'))).toBe(token)
    expect(await page.evaluate(() => localStorage.length)).toBe(0)
    await pickZone(page, zone.name)
    await expect.poll(() => page.locator('.page-info').innerText()).toMatch(/75 total/)
    await shot('records')
  })

  it('deletes 50 selected records in one batch call after a confirmation that lists them', async () => {
    await search('bulk-', 60)
    await page.getByLabel('Select all records on this page').check()
    await expect
      .poll(() => page.getByRole('region', { name: 'Bulk actions' }).innerText())
      .toContain('50 selected')
    await page
      .getByRole('region', { name: 'Bulk actions' })
      .getByRole('button', { name: 'Delete' })
      .click()
    const dialog = page.getByRole('dialog', { name: 'Delete 50 records' })
    await expect
      .poll(() => dialog.getByRole('list', { name: 'Changes' }).locator('li').count())
      .toBe(50)
    expect(await dialog.innerText()).toContain(`Delete A bulk-000.${zone.name} 198.51.100.1`)
    await shot('bulk-confirm')
    const calls = await batchCallsDuring(async () => {
      await dialog.getByRole('button', { name: 'Apply 50 changes' }).click()
      await expect.poll(() => page.getByTestId('notice').innerText()).toContain('Delete 50 records')
    })
    expect(calls).toHaveLength(1)
    expect(JSON.parse(calls[0]!.postData()!).deletes).toHaveLength(50)
    expect(await records('name.startswith=bulk-')).toHaveLength(10)
    await expect.poll(() => page.locator('.page-info').innerText()).toMatch(/10 total/)
  })

  it('turns the proxy on for 10 records in one batch call', async () => {
    await search('px-', 10)
    await page.getByLabel('Select all records on this page').check()
    await page
      .getByRole('region', { name: 'Bulk actions' })
      .getByRole('button', { name: 'Proxy on' })
      .click()
    const dialog = page.getByRole('dialog', { name: 'Turn proxy on for 10 records' })
    const calls = await batchCallsDuring(async () => {
      await dialog.getByRole('button', { name: 'Apply 10 changes' }).click()
      await expect
        .poll(() => page.getByTestId('notice').innerText())
        .toContain('Turn proxy on for 10 records')
    })
    expect(calls).toHaveLength(1)
    expect(JSON.parse(calls[0]!.postData()!).patches).toEqual(
      expect.arrayContaining([expect.objectContaining({ proxied: true })])
    )
    const px = await records('name.startswith=px-')
    expect(px.map((r) => r.proxied)).toEqual(Array(10).fill(true))
    await expect.poll(() => page.getByRole('switch', { checked: true }).count()).toBe(10)
    // One record back off through its own toggle.
    await page.getByRole('switch', { name: `Proxy A px-0.${zone.name}` }).click()
    await expect.poll(async () => (await records(`name=px-0.${zone.name}`))[0].proxied).toBe(false)
  })

  it('shows a failed bulk change with the item the batch error points at, and changes nothing', async () => {
    await search('ttl-', 2)
    await page.getByLabel('Select all records on this page').check()
    const [gone] = await records(`name=ttl-b.${zone.name}`)
    await call('DELETE', `/zones/${zone.id}/dns_records/${gone.id}`) // behind the page's back
    await page.getByLabel('TTL', { exact: true }).selectOption('3600')
    await page.getByRole('button', { name: 'Set TTL' }).click()
    const dialog = page.getByRole('dialog', { name: 'Set TTL to 3600 s on 2 records' })
    await dialog.getByRole('button', { name: 'Apply 2 changes' }).click()
    await expect
      .poll(() => dialog.getByRole('alert').innerText())
      .toMatch(/\/patches\/1 \(TXT ttl-b\..*\): .*81044/)
    expect(await dialog.innerText()).toContain('Nothing was changed.')
    expect((await records(`name=ttl-a.${zone.name}`))[0].ttl).toBe(1)
    await dialog.getByRole('button', { name: 'Cancel' }).click()
    await page.getByRole('button', { name: 'Clear selection' }).click()
  })

  it('edits a record inline', async () => {
    await search('edit-me', 1)
    await page.getByRole('button', { name: `Edit A edit-me.${zone.name} inline` }).click()
    // Focus is on the name already when the click returns, not moved there after the next paint:
    // a late move would carry typing that had started in another field into the name.
    expect(await page.evaluate("document.activeElement?.getAttribute('aria-label')")).toBe('Name')
    await page.getByLabel('Content', { exact: true }).fill('192.0.2.99')
    await page.getByLabel('TTL', { exact: true }).fill('600')
    await page.getByRole('button', { name: 'Save', exact: true }).click()
    await expect
      .poll(async () => (await records(`name=edit-me.${zone.name}`))[0])
      .toMatchObject({ content: '192.0.2.99', ttl: 600 })
    await expect.poll(() => page.locator('table.records').innerText()).toContain('192.0.2.99')
  })

  it('adds an MX and an SRV record through their own fields', async () => {
    await search('', null)
    let dialog = await openAddForm('MX')
    await dialog.getByLabel('Name', { exact: true }).fill('@')
    await dialog.getByLabel('Priority').fill('10')
    await dialog.getByLabel('Mail server').fill(`mail.${zone.name}`)
    await dialog.getByRole('button', { name: 'Add record' }).click()
    await expect
      .poll(async () => (await records('type=MX'))[0])
      .toMatchObject({ name: zone.name, priority: 10, content: `mail.${zone.name}` })

    dialog = await openAddForm('SRV')
    await dialog.getByLabel('Service').fill('_sip')
    await dialog.getByLabel('Protocol').selectOption('_udp')
    await dialog.getByLabel('Host (@ for the zone apex)').fill('@')
    await dialog.getByLabel('Priority').fill('10')
    await dialog.getByLabel('Weight').fill('5')
    await dialog.getByLabel('Port').fill('5060')
    await dialog.getByLabel('Target').fill(`sip.${zone.name}`)
    await page.setViewportSize({ width: 1280, height: 1000 })
    await shot('record-form-srv')
    await dialog.getByRole('button', { name: 'Add record' }).click()
    await expect
      .poll(async () => (await records('type=SRV'))[0])
      .toMatchObject({
        name: `_sip._udp.${zone.name}`,
        data: { priority: 10, weight: 5, port: 5060, target: `sip.${zone.name}` },
      })
    await page.setViewportSize({ width: 1280, height: 860 })
  })

  it('edits a record with data fields in its full form, and filters by type', async () => {
    await page.getByLabel('Type', { exact: true }).selectOption('CAA')
    await expect.poll(() => page.locator('.page-info').innerText()).toMatch(/· 1 total/)
    await page.getByRole('button', { name: `Edit all fields of CAA ${zone.name}` }).click()
    const dialog = page.getByRole('dialog', { name: `Edit CAA ${zone.name}` })
    expect(await dialog.getByLabel('Value').inputValue()).toBe('letsencrypt.org')
    await dialog.getByLabel('Tag').selectOption('issuewild')
    await dialog.getByLabel('Value').fill('pki.goog')
    await dialog.getByRole('button', { name: 'Save record' }).click()
    await expect
      .poll(async () => (await records('type=CAA'))[0].data)
      .toEqual({ flags: 0, tag: 'issuewild', value: 'pki.goog' })
    // The API has the change before the dialog closes; its own Type field would match too.
    await dialog.waitFor({ state: 'detached' })
    await page.getByLabel('Type', { exact: true }).selectOption('')
  })

  it('shows an invalid IPv4 address next to its field and changes nothing', async () => {
    const before = (await call('GET', `/zones/${zone.id}/dns_records?per_page=1`)).result_info
      .total_count
    const dialog = await openAddForm('A')
    await dialog.getByLabel('Name', { exact: true }).fill('bad-ip')
    await dialog.getByLabel('IPv4 address').fill('192.0.2.300')
    await dialog.getByRole('button', { name: 'Add record' }).click()
    const error = dialog.locator('[data-field="content"] .error')
    await expect.poll(() => error.innerText()).toMatch(/IPv4|9005/i)
    expect(await dialog.getByLabel('IPv4 address').getAttribute('aria-invalid')).toBe('true')
    await shot('field-error')
    await dialog.getByRole('button', { name: 'Cancel' }).click()
    expect(
      (await call('GET', `/zones/${zone.id}/dns_records?per_page=1`)).result_info.total_count
    ).toBe(before)
  })

  it('shows a CNAME conflict next to the name and changes nothing', async () => {
    const before = (await call('GET', `/zones/${zone.id}/dns_records?per_page=1`)).result_info
      .total_count
    const dialog = await openAddForm('CNAME')
    await dialog.getByLabel('Name', { exact: true }).fill('www')
    await dialog.getByLabel('Target').fill('elsewhere.example')
    await dialog.getByRole('button', { name: 'Add record' }).click()
    await expect
      .poll(() => dialog.locator('[data-field="name"] .error').innerText())
      .toMatch(/CNAME/)
    await dialog.getByRole('button', { name: 'Cancel' }).click()
    expect(
      (await call('GET', `/zones/${zone.id}/dns_records?per_page=1`)).result_info.total_count
    ).toBe(before)
    expect(await records(`name=www.${zone.name}&type=CNAME`)).toHaveLength(0)
  })

  it('imports a zone file after a preview, in one import, and exports the zone', async () => {
    await page.getByRole('button', { name: 'Import / export' }).click()
    const file = [
      `$ORIGIN ${zone.name}.`,
      '$TTL 3600',
      `@ IN SOA ns1.edgedns.dev. hostmaster.${zone.name}. 1 7200 3600 1209600 3600`,
      'imp1 IN A 192.0.2.201',
      'imp2 IN AAAA 2001:db8::201',
      'imp3 IN TXT "imported from a file"',
      'imp4 IN CNAME imp1',
      '_xmpp._tcp IN SRV 5 0 5222 imp1',
    ].join('\n')
    await page
      .getByLabel('Zone file')
      .setInputFiles({ name: 'import.zone', mimeType: 'text/plain', buffer: Buffer.from(file) })
    await expect
      .poll(() => page.getByRole('heading', { name: /^Preview/ }).innerText())
      .toBe('Preview: 5 records to create, 1 skipped')
    await shot('import-preview')
    await page.getByRole('button', { name: 'Import 5 records' }).click()
    await expect.poll(() => page.locator('.alert.ok').innerText()).toContain('Imported 5 of')
    expect(await records('name.startswith=imp')).toHaveLength(4)

    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Export zone file' }).click(),
    ])
    expect(download.suggestedFilename()).toBe(`${zone.name}.zone`)
    const text = readFileSync((await download.path())!, 'utf8')
    expect(text).toMatch(/imp1\S*\s+\d+\s+IN\s+A\s+192\.0\.2\.201/)
    expect(text).toContain('_xmpp._tcp')
    expect(text).toContain('192.0.2.99')
  })

  it('shows zone settings, the audit log and propagation, and saves a settings change', async () => {
    await page.getByRole('button', { name: 'Settings' }).click()
    const refresh = page.getByLabel('Refresh (s)')
    await refresh.waitFor()
    await refresh.fill('7300')
    await page.getByLabel('NS record TTL (s)').fill('7200')
    await page.getByRole('button', { name: 'Save settings' }).click()
    await expect
      .poll(async () => (await call('GET', `/zones/${zone.id}/dns_settings`)).result)
      .toMatchObject({ ns_ttl: 7200, soa: { refresh: 7300 } })
    await shot('settings')

    await page.getByRole('button', { name: 'Audit log' }).click()
    await expect.poll(() => page.locator('table.audit').innerText()).toContain('192.0.2.99')
    expect(await page.locator('table.audit').innerText()).toMatch(/local dev token dev\s+update/)
    await expect
      .poll(() => page.getByTestId('propagation').innerText(), { timeout: 30_000 })
      .toMatch(/Live/)
    await shot('audit')
  })

  it('resolves a name of the zone through DoH from the query tab', async () => {
    await page.getByRole('button', { name: 'Query' }).click()
    await page.getByLabel('Name', { exact: true }).fill(`edit-me.${zone.name}`)
    await page.getByLabel('Type', { exact: true }).fill('A')
    await expect
      .poll(
        async () => {
          await page.getByRole('button', { name: 'Resolve' }).click()
          return page.getByRole('status', { name: 'Answer' }).innerText()
        },
        { timeout: 20_000, interval: 500 }
      )
      .toContain('192.0.2.99')
  })

  let readOnlySecret = ''
  it('creates a scoped read-only token and shows its secret once', async () => {
    await page.getByRole('button', { name: 'API tokens' }).click()
    await page.getByLabel('Token name').fill('read-only viewer')
    await page.getByLabel('DNS Read').check()
    await page.getByLabel('Zone Read').check()
    await page.getByLabel(`Only ${zone.name}`).check()
    await page.getByRole('button', { name: 'Create token' }).click()
    const secret = page.getByLabel('Secret')
    await secret.waitFor()
    readOnlySecret = await secret.inputValue()
    expect(readOnlySecret.length).toBeGreaterThan(20)
    await shot('tokens')
    await page.getByRole('button', { name: 'I have copied it' }).click()
    expect(await page.getByLabel('Secret').count()).toBe(0)
    expect(await page.locator('table').innerText()).toContain('read-only viewer')
  })

  it('works read-only with that token: records visible, editing hidden, refusals explained', async () => {
    const ctx = await browser.newContext({ viewport: { width: 1280, height: 860 } })
    const p = await ctx.newPage()
    try {
      await signIn(p, readOnlySecret)
      await pickZone(p, zone.name)
      await expect.poll(() => p.getByTestId('read-only').innerText()).toMatch(/Read-only/)
      await expect
        .poll(() => p.locator('table.records').innerText())
        .toContain(`edit-me.${zone.name}`)
      expect(await p.getByRole('button', { name: 'Add record' }).count()).toBe(0)
      expect(await p.getByRole('checkbox').count()).toBe(0)
      expect(await p.getByRole('switch').count()).toBe(0)
      await p.screenshot({ path: `${SHOTS}/read-only.png` })
      await p.getByRole('button', { name: 'API tokens' }).click()
      await expect
        .poll(() => p.getByRole('alert').last().innerText())
        .toMatch(/cannot manage API tokens/)
      // Revoking the token from the admin page ends its access.
      await page.getByRole('button', { name: 'Revoke read-only viewer' }).click()
      await page.getByRole('dialog').getByRole('button', { name: 'Revoke token' }).click()
      await expect
        .poll(
          async () => (await call('GET', '/user/tokens/verify', undefined, readOnlySecret)).success
        )
        .toBe(false)
    } finally {
      await ctx.close()
    }
  })

  it("shows a pending zone's TXT record and runs its activation check", async () => {
    // The stack serves zones at once (verification off): the browser is shown this zone pending.
    const key = '0123456789abcdef0123456789abcdef'
    const reason = `${zone.name} is still pending: no TXT record at _edgedns-verify.${zone.name} holds the zone's verification_key; ${zone.name} is not delegated to ns1.edgedns.dev, ns2.edgedns.dev.`
    const ctx = await browser.newContext({ viewport: { width: 1280, height: 860 } })
    const p = await ctx.newPage()
    const checks: string[] = []
    await p.route('**/client/v4/zones?*', async (route) => {
      const res = await route.fetch()
      const body = await res.json()
      for (const z of body.result)
        if (z.id === zone.id) Object.assign(z, { status: 'pending', verification_key: key })
      await route.fulfill({ response: res, json: body })
    })
    await p.route(`**/client/v4/zones/${zone.id}/propagation`, (route) =>
      route.fulfill({
        json: {
          success: true,
          errors: [],
          messages: [],
          result: {
            status: 'pending',
            committed_seq: 2,
            built_seq: 0,
            lag_ms: 0,
            message: 'pending',
          },
        },
      })
    )
    await p.route(`**/client/v4/zones/${zone.id}/activation_check`, (route) => {
      checks.push(route.request().method())
      return route.fulfill({
        json: {
          success: true,
          errors: [],
          messages: [{ code: 10005, message: reason }],
          result: { id: zone.id },
        },
      })
    })
    try {
      await signIn(p, null)
      await p.getByLabel('Zone', { exact: true }).selectOption({ label: `${zone.name} (pending)` })
      const notice = p.getByTestId('pending-zone')
      await notice.waitFor()
      expect(await notice.getByTestId('txt-name').innerText()).toBe(`_edgedns-verify.${zone.name}`)
      expect(await notice.getByTestId('txt-value').innerText()).toBe(key)
      await expect.poll(() => p.getByTestId('propagation').innerText()).toMatch(/Pending/)
      await notice.getByRole('button', { name: 'Check now' }).click()
      await expect.poll(() => p.getByTestId('activation-result').innerText()).toBe(reason)
      expect(checks).toEqual(['PUT'])
      await p.screenshot({ path: `${SHOTS}/pending.png` })
    } finally {
      await ctx.close()
    }
  })
})
