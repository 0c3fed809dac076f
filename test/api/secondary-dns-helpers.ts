/** Helpers of the secondary-DNS configuration API tests. */
import { api, DEFAULT_ACCOUNT } from './helpers.ts'

export const base = `/accounts/${DEFAULT_ACCOUNT}/secondary_dns`
export const SECRET = btoa('0123456789abcdef0123456789abcdef')
let n = 0
export const unique = (prefix: string) => `${prefix}-${Date.now().toString(36)}-${n++}`

export async function created(path: string, body: unknown): Promise<any> {
  const res = await api('POST', path, body)
  if (res.status !== 200) throw new Error(`POST ${path}: ${JSON.stringify(res.body)}`)
  return res.body.result
}

export const newTsig = (name = `${unique('key')}.example.`) =>
  created(`${base}/tsigs`, { name, algo: 'hmac-sha256.', secret: SECRET })
export const newPeer = (name = unique('peer')) => created(`${base}/peers`, { name })

export async function zoneOfType(
  type: 'full' | 'secondary'
): Promise<{ id: string; name: string }> {
  const name = `${unique(type)}.example`
  const res = await api('POST', '/zones', { name, account: { id: DEFAULT_ACCOUNT }, type })
  if (res.status !== 200) throw new Error(JSON.stringify(res.body))
  return { id: res.body.result.id, name }
}

export async function mint(policies: unknown[]): Promise<string> {
  const res = await api('POST', '/user/tokens', { name: unique('xfr'), policies })
  if (res.status !== 200) throw new Error(JSON.stringify(res.body))
  return res.body.result.value
}
