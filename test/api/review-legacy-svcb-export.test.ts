/**
 * Review: HTTPS/SVCB rows stored before the escaping fix (as the example stored them) are
 * exported as stored (57e2cca, `portable` / the plain `d.value` branch), and no migration rewrites
 * them: the export of such a zone still does not import back.
 */
import { env } from 'cloudflare:workers'
import { describe, expect, it } from 'vitest'
import { api, createZone } from './helpers.ts'
import { exportZone, importZone } from './import-export-helpers.ts'

describe('an HTTPS row stored by the earlier parser', () => {
  it('exports to a zone file that imports back', async () => {
    const z = await createZone('legacy-svcb')
    const made = await api('POST', `/zones/${z.id}/dns_records`, {
      type: 'HTTPS',
      name: 'svcq',
      data: { priority: 1, target: '.', value: 'alpn=h2' },
    })
    expect(made.status).toBe(200)
    // What the earlier parser stored for the issue's request (dohpath=/q"(x): unescaped.
    const legacy = 'dohpath="/q"(x"'
    await (env as any).DB.prepare(
      'UPDATE dns_records SET data = ?2, content = ?3 WHERE id = ?1'
    )
      .bind(
        made.body.result.id,
        JSON.stringify({ priority: 1, target: '.', value: legacy }),
        `1 . ${legacy}`
      )
      .run()
    const exported = await exportZone(z.id)
    expect(exported.status).toBe(200)
    const again = await createZone('legacy-svcb-import')
    const imported = await importZone(again.id, exported.text.replaceAll(z.name, again.name))
    expect(imported.status, `${JSON.stringify(imported.body.errors)}\n${exported.text}`).toBe(200)
  })
})
