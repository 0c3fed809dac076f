/**
 * Multipart import and text export helpers for the import/export tests (workerd).
 */
import { exports } from 'cloudflare:workers'
import { api, DEV_TOKEN, type ApiResponse } from './helpers.ts'

export type FilePart = 'field' | 'file'

export async function importZone(
  zoneId: string,
  text: string,
  opts: { proxied?: string; as?: FilePart } = {}
): Promise<ApiResponse> {
  const form = new FormData()
  if (opts.as === 'file') form.append('file', new File([text], 'zone.txt', { type: 'text/plain' }))
  else form.append('file', text)
  if (opts.proxied !== undefined) form.append('proxied', opts.proxied)
  const res = await (exports as any).default.fetch(
    `http://localhost/client/v4/zones/${zoneId}/dns_records/import`,
    {
      method: 'POST',
      headers: { authorization: `Bearer ${DEV_TOKEN}` },
      body: form,
    }
  )
  return { status: res.status, body: await res.json(), headers: res.headers }
}

export async function exportZone(
  zoneId: string
): Promise<{ status: number; text: string; type: string | null }> {
  const res = await (exports as any).default.fetch(
    `http://localhost/client/v4/zones/${zoneId}/dns_records/export`,
    {
      headers: { authorization: `Bearer ${DEV_TOKEN}`, accept: 'text/plain' },
    }
  )
  return { status: res.status, text: await res.text(), type: res.headers.get('content-type') }
}

export async function allRecords(zoneId: string): Promise<any[]> {
  const res = await api('GET', `/zones/${zoneId}/dns_records?per_page=50000`)
  return res.body.result
}
