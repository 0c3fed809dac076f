/**
 * The dashboard's zone transfer page in a real browser against the real stack
 * (./dashboard-session.ts): the account's TSIG key, peer (a bad address shown on its field first)
 * and ACL made through its forms, the account's catalog zone set up, outgoing transfers of a primary zone set up, enabled and
 * notified; then a secondary zone added from the dashboard, its primary (BIND `named`, TSIG) picked,
 * pulled by AXFR from the page, its copy's serial and skipped records shown, and its records
 * listed with editing hidden, its SOA shown as the primary's; with the primary stopped, a transfer's failure shown. Screenshots go to docs/screenshots/.
 */
import type { ChildProcess } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  browser,
  call,
  page,
  pickZone,
  shot,
  SHOTS,
  signIn,
  useDashboard,
  zone,
} from './dashboard-session.ts'
import { namedPrimary } from './tools/named-primary.ts'
import { stopChild } from './tools/processes.ts'

useDashboard()

const stamp = Date.now().toString(36)
const secondary = `ui-sec-${stamp}.example`
const KEY = `ui-key-${stamp}.example`
const PEER = `ui-primary-${stamp}`
const SECRET = 'ZGFzaGJvYXJkLXRyYW5zZmVyLXRlc3Qtc2VjcmV0LTMyYg=='
const dir = mkdtempSync(path.join(tmpdir(), 'edgedns-ui-xfr-'))
let named: ChildProcess | undefined
let namedPort = 0

beforeAll(async () => {
  const primary = await namedPrimary({
    dir,
    zone: secondary,
    key: { name: KEY, secret: SECRET },
    zoneText: `$ORIGIN ${secondary}.
$TTL 300
@ 3600 IN SOA ns.primary.test. hostmaster.primary.test. 2026112801 7200 900 1209600 300
@ 86400 IN NS ns1.edgedns.dev.
@ 86400 IN NS ns2.edgedns.dev.
@ IN A 192.0.2.10
@ IN HINFO "PC" "Linux"
www IN A 192.0.2.11
mail IN A 192.0.2.12
`,
  })
  named = primary.child
  namedPort = primary.port
}, 60_000)

afterAll(async () => {
  // What the tests made in the account every e2e test shares: the zones' settings, the peer, the key.
  const [account] = (await call('GET', '/accounts')).result
  const base = `/accounts/${account.id}/secondary_dns`
  const zones = (await call('GET', `/zones?name=${secondary}`)).result
  for (const z of zones) await call('DELETE', `/zones/${z.id}`)
  await call('DELETE', `/zones/${zone.id}/secondary_dns/outgoing`)
  for (const [list, name] of [
    ['peers', PEER],
    ['tsigs', KEY],
  ]) {
    const item = (await call('GET', `${base}/${list}`)).result.find(
      (x: { name: string }) => x.name === name
    )
    if (item) expect((await call('DELETE', `${base}/${list}/${item.id}`)).success).toBe(true)
  }
  await stopChild(named)
  rmSync(dir, { recursive: true, force: true, maxRetries: 5, retryDelay: 100 })
})

const notice = () => page.getByTestId('notice').innerText()
const section = (name: string) => page.getByRole('region', { name })
const tab = (name: string) =>
  page.getByRole('navigation', { name: 'Zone sections' }).getByRole('button', { name })

/** Opens `Add <what>`, fills its fields (label → value; a select by its option's label), saves. */
async function addItem(what: string, fields: Record<string, string>, selects = {}) {
  await page.getByRole('button', { name: `Add ${what}`, exact: true }).click()
  const dialog = page.getByRole('dialog', { name: `Add a ${what}` })
  for (const [label, value] of Object.entries(fields))
    await dialog.getByLabel(label, { exact: true }).fill(value)
  for (const [label, option] of Object.entries(selects as Record<string, string>))
    await dialog.getByLabel(label, { exact: true }).selectOption({ label: option })
  await dialog.getByRole('button', { name: `Save ${what}` }).click()
  return dialog
}

describe('dashboard zone transfers', () => {
  it('makes a TSIG key, a peer and an ACL, and sets up outgoing transfers of a primary zone', async () => {
    await signIn(page, null)
    await pickZone(page, zone.name)
    await tab('Zone transfers').click()
    await section('Outgoing transfers').getByText('No outgoing transfers are set up').waitFor()

    await addItem('TSIG key', { 'Key name': KEY, 'Secret (base64)': SECRET })
    await expect.poll(notice).toContain(`Saved TSIG key ${KEY}`)

    // A bad address is shown on its field, and nothing is made.
    const dialog = await addItem('peer', { Name: PEER, 'IP address': 'not-an-address' })
    const ip = dialog.locator('[data-field="ip"]')
    await expect.poll(() => ip.getAttribute('class')).toContain('has-error')
    expect(await ip.getByRole('alert').innerText()).toMatch(/^ip/)
    await dialog.getByLabel('IP address', { exact: true }).fill('127.0.0.1')
    await dialog.getByLabel('Port', { exact: true }).fill(String(namedPort))
    await dialog
      .getByLabel('Ask IXFR first')
      .selectOption({ label: 'Yes: IXFR, AXFR when it fails' })
    await dialog.getByLabel('TSIG key').selectOption({ label: KEY })
    await dialog.getByRole('button', { name: 'Save peer' }).click()
    await expect.poll(notice).toContain(`Saved peer ${PEER}`)
    const peers = page.getByRole('table', { name: 'Peers' })
    await expect
      .poll(() => peers.getByRole('row', { name: new RegExp(PEER) }).innerText())
      .toMatch(new RegExp(`127\\.0\\.0\\.1:${namedPort}\\s+yes\\s+${KEY.replace(/\./g, '\\.')}`))

    // A range no other test transfers from: the account is the whole e2e stack's.
    await addItem('ACL', { Name: `ui-acl-${stamp}`, 'Address range': '192.0.2.77/28' })
    await expect
      .poll(() => page.getByRole('table', { name: 'Transfer ACLs' }).innerText())
      .toContain('192.0.2.64/28')

    const out = section('Outgoing transfers')
    await out.getByLabel(`${PEER} (`).check()
    await out.getByRole('button', { name: 'Set up' }).click()
    await expect.poll(notice).toContain('Outgoing transfer settings saved.')
    await expect.poll(() => out.getByTestId('outgoing-status').innerText()).toBe('Disabled')
    await out.getByRole('button', { name: 'Enable' }).click()
    await expect.poll(() => out.getByTestId('outgoing-status').innerText()).toBe('Enabled')
    await out.getByRole('button', { name: 'Send NOTIFY now' }).click()
    await expect.poll(notice).toContain('NOTIFY sent')

    const [account] = (await call('GET', '/accounts')).result
    const peerId = (await call('GET', `/accounts/${account.id}/secondary_dns/peers`)).result.find(
      (p: { name: string }) => p.name === PEER
    ).id

    // The account's catalog zone, set up (or changed, if another test left one) and then put back.
    const catalogPath = `/accounts/${account.id}/secondary_dns/catalog`
    const before = await call('GET', catalogPath)
    const catalog = page.getByRole('group', { name: 'Catalog zone' })
    await catalog.getByLabel('Catalog zone name').fill(`catalog-${stamp}.ui.example`)
    await catalog.getByLabel(`${PEER} (`).check()
    await catalog.getByRole('button', { name: /^(Set up|Save) catalog$/ }).click()
    await expect.poll(notice).toContain(`Catalog zone catalog-${stamp}.ui.example saved.`)
    await expect.poll(() => catalog.getByTestId('catalog-status').innerText()).toBe('Served')
    expect((await call('GET', catalogPath)).result).toMatchObject({
      name: `catalog-${stamp}.ui.example`,
      peers: [peerId],
      enabled: true,
    })
    if (before.success) {
      const { name, peers, enabled } = before.result
      expect((await call('PUT', catalogPath, { name, peers, enabled })).success).toBe(true)
    } else {
      await catalog.getByRole('button', { name: 'Remove catalog' }).click()
      await page
        .getByRole('dialog', { name: 'Remove the catalog zone?' })
        .getByRole('button', { name: 'Remove' })
        .click()
      await expect.poll(notice).toContain('Catalog zone removed.')
      expect((await call('GET', catalogPath)).errors[0]!.code).toBe(10210)
    }
    expect((await call('GET', `/zones/${zone.id}/secondary_dns/outgoing`)).result.peers).toEqual([
      peerId,
    ])
    expect((await call('GET', `/zones/${zone.id}/secondary_dns/outgoing/status`)).result).toBe(
      'Enabled'
    )
    await page.evaluate('window.scrollTo(0, 0)')
    await page.screenshot({ path: `${SHOTS}/zone-transfers.png`, fullPage: true })

    await page.getByRole('button', { name: `Delete ACL ui-acl-${stamp}` }).click()
    await page
      .getByRole('dialog', { name: `Delete ACL ui-acl-${stamp}?` })
      .getByRole('button', { name: 'Delete ACL' })
      .click()
    await expect.poll(notice).toContain(`Deleted ACL ui-acl-${stamp}.`)
    await expect
      .poll(() => page.getByRole('table', { name: 'Transfer ACLs' }).innerText())
      .not.toContain('192.0.2.64/28')
  })

  it('adds a secondary zone, pulls it from its primary by AXFR, and lists its records read-only', async () => {
    await page.getByRole('button', { name: 'Add zone' }).first().click()
    const add = page.getByRole('dialog', { name: 'Add a zone' })
    await add.getByLabel('Zone name').fill(secondary)
    await add.getByLabel('Secondary: records copied').check()
    await add.getByRole('button', { name: 'Add zone' }).click()
    await expect.poll(notice).toContain(`Added zone ${secondary}`)

    const incoming = section('Incoming transfers')
    await incoming.getByText('No incoming transfers are set up').waitFor()
    await incoming.getByLabel(`${PEER} (`).check()
    await incoming.getByLabel('Refresh (s)').fill('3600')
    await incoming.getByRole('button', { name: 'Set up' }).click()
    await expect.poll(notice).toContain('Incoming transfer settings saved.')
    await incoming.getByRole('button', { name: 'Transfer now (AXFR)' }).click()
    await expect.poll(notice, { timeout: 30_000 }).toContain(`Transferred ${secondary} by AXFR.`)
    await expect
      .poll(() => incoming.getByTestId('copy-serial').innerText())
      .toBe('serial 2026112801')
    expect(await incoming.getByTestId('serving').innerText()).toBe('yes')
    // named's SOA expire (1,209,600 s) after this transfer: two weeks from now.
    const expires = await incoming.getByTestId('expires').locator('time').getAttribute('datetime')
    expect(Date.parse(expires!) - Date.now()).toBeGreaterThan(1_209_600_000 - 120_000)
    expect(await incoming.getByTestId('last-error').count()).toBe(0)
    expect(await incoming.getByTestId('skipped-records').innerText()).toContain(
      '1 HINFO record: the records API does not hold HINFO records'
    )
    await page.evaluate('window.scrollTo(0, 0)')
    await shot('zone-transfers-secondary')

    await tab('DNS records').click()
    await expect.poll(() => page.locator('table.records').innerText()).toContain('192.0.2.11')
    expect(await page.getByTestId('secondary-zone').innerText()).toContain(
      `the records of ${secondary} are copied from its primaries`
    )
    expect(await page.getByRole('button', { name: 'Add record', exact: true }).count()).toBe(0)

    // Its SOA is the primary's: shown, not editable; the NS TTL still saves.
    await tab('Settings').click()
    await page.getByTestId('soa-from-primary').waitFor()
    expect(await page.getByLabel('Primary name server (MNAME)').isDisabled()).toBe(true)
    expect(await page.getByLabel('Primary name server (MNAME)').inputValue()).toBe(
      'ns.primary.test'
    )
    await page.getByLabel('NS record TTL (s)').fill('7200')
    await page.getByRole('button', { name: 'Save settings' }).click()
    await expect.poll(notice).toContain('Zone settings saved.')

    // With the primary gone, a transfer fails: the notice and the card say why; the copy stays.
    await stopChild(named)
    named = undefined
    await tab('Zone transfers').click()
    await section('Incoming transfers').getByRole('button', { name: 'Transfer now (AXFR)' }).click()
    await expect.poll(notice, { timeout: 30_000 }).toContain(`AXFR of ${secondary} failed`)
    await expect
      .poll(() => section('Incoming transfers').getByTestId('last-error').innerText())
      .toContain(`The last check of the primaries failed: 127.0.0.1 port ${namedPort}`)
    expect(await section('Incoming transfers').getByTestId('serving').innerText()).toBe('yes')
  })

  it('with a token for this zone alone: the zone’s transfers editable, the account’s lists not shown', async () => {
    const groups = (await call('GET', '/user/tokens/permission_groups')).result
    const dns = groups.filter((g: { name: string }) => /^DNS (Read|Write)$/.test(g.name))
    expect(dns).toHaveLength(2)
    const made = await call('POST', '/user/tokens', {
      name: `ui-zone-${stamp}`,
      policies: [
        {
          effect: 'allow',
          permission_groups: dns.map((g: { id: string }) => ({ id: g.id })),
          resources: { [`com.cloudflare.api.account.zone.${zone.id}`]: '*' },
        },
      ],
    })
    const ctx = await browser.newContext({ viewport: { width: 1280, height: 860 } })
    try {
      const p = await ctx.newPage()
      await signIn(p, made.result.value)
      await pickZone(p, zone.name)
      await p
        .getByRole('navigation', { name: 'Zone sections' })
        .getByRole('button', { name: 'Zone transfers' })
        .click()
      await p
        .getByText('The account’s keys, peers and ACLs cannot be read with this token')
        .waitFor()
      const out = p.getByRole('region', { name: 'Outgoing transfers' })
      await out.getByText('This token cannot list the account’s peers').waitFor()
      const [account] = (await call('GET', '/accounts')).result
      const peer = (await call('GET', `/accounts/${account.id}/secondary_dns/peers`)).result.find(
        (x: { name: string }) => x.name === PEER
      )
      expect(await out.getByLabel(peer.id).isChecked()).toBe(true)
      expect(await out.getByRole('button', { name: 'Save' }).isEnabled()).toBe(true)
      expect(await p.getByRole('button', { name: 'Add peer' }).count()).toBe(0)
    } finally {
      await ctx.close()
      await call('DELETE', `/user/tokens/${made.result.id}`)
    }
  })
})
