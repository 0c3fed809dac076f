/**
 * The OpenAPI document covers every route the Hono app registers (and nothing else), is public,
 * and the reference page renders it without loading anything from another origin.
 */
import { exports } from 'cloudflare:workers'
import { describe, expect, it } from 'vitest'
import { createApp } from '../../workers/api/src/app.ts'

const fetchRaw = (path: string, init?: RequestInit) =>
  (exports as any).default.fetch(`http://localhost${path}`, init) as Promise<Response>

/** `/client/v4/zones/:zone_id{[^/]+}/dns_records/` → `/zones/{zone_id}/dns_records` */
function templateOf(honoPath: string): string {
  const p = honoPath
    .replace(/^\/client\/v4/, '')
    .replace(/:(\w+)(\{[^}]*\}+)?/g, '{$1}')
    .replace(/\/+$/, '')
  return p === '' ? '/' : p
}

describe('OpenAPI document', () => {
  it('is served without a token and is OpenAPI 3.1', async () => {
    const res = await fetchRaw('/client/v4/openapi.json')
    expect(res.status).toBe(200)
    const doc = await res.json<any>()
    expect(doc.openapi).toBe('3.1.0')
    expect(doc.components.schemas['RecordData.SRV'].properties).toHaveProperty('port')
    expect(doc.components.schemas.RecordInput.properties.type.enum).toContain('OPENPGPKEY')
    const imp = doc.paths['/zones/{zone_id}/dns_records/import'].post
    expect(Object.keys(imp.requestBody.content)).toEqual(['multipart/form-data'])
    expect(
      doc.paths['/zones/{zone_id}/dns_records/export'].get.responses[200].content
    ).toHaveProperty('text/plain')
    const list = doc.paths['/zones/{zone_id}/dns_records'].get.parameters.map((p: any) => p.name)
    expect(list).toEqual(
      expect.arrayContaining(['zone_id', 'name.contains', 'tag.present', 'match', 'per_page'])
    )
  })

  it('lists exactly the routes the app registers', async () => {
    const doc = await (await fetchRaw('/client/v4/openapi.json')).json<any>()
    const routes = createApp()
      .routes.filter((r) => r.method !== 'ALL' && r.path.startsWith('/client/v4/'))
      .map((r) => `${r.method.toLowerCase()} ${templateOf(r.path)}`)
    const registered = [...new Set(routes)].sort()
    const documented = Object.entries(doc.paths as Record<string, Record<string, unknown>>)
      .flatMap(([path, ops]) => Object.keys(ops).map((m) => `${m} ${path}`))
      .sort()
    expect(registered.length).toBeGreaterThan(30)
    expect(documented).toEqual(registered)
  })

  it('the docs page is self-contained HTML that loads ./openapi.json', async () => {
    const res = await fetchRaw('/client/v4/docs')
    expect(res.status).toBe(200)
    expect(res.headers.get('content-type')).toMatch(/^text\/html/)
    const html = await res.text()
    expect(html).toContain("fetch('openapi.json')")
    expect(html).not.toMatch(/(src|href)=["']?(https?:)?\/\//)
    expect(html).not.toMatch(/@import|cdn/i)
  })

  it('the rest of the API still needs a token', async () => {
    const res = await fetchRaw('/client/v4/zones')
    expect(res.status).toBe(403)
  })
})
