import { describe, expect, it } from 'vitest'
import { api, createZone } from './helpers.ts'

const COMMITTED_AT = 'x-edgedns-committed-at'

/** The commit instant a response names, checked to lie within the request's own span. */
async function committedWithin(call: () => Promise<{ headers: Headers }>): Promise<number> {
  const before = Date.now()
  const res = await call()
  const after = Date.now()
  const at = Number(res.headers.get(COMMITTED_AT))
  expect(Number.isInteger(at)).toBe(true)
  expect(at).toBeGreaterThanOrEqual(before)
  expect(at).toBeLessThanOrEqual(after)
  return at
}

describe('writes name the instant D1 acknowledged their commit', () => {
  it('a record create, edit and delete each carry the commit instant, in order', async () => {
    const z = await createZone()
    let id = ''
    const created = await committedWithin(async () => {
      const res = await api('POST', `/zones/${z.id}/dns_records`, {
        type: 'A',
        name: 'at',
        content: '192.0.2.1',
      })
      id = res.body.result.id
      return res
    })
    const edited = await committedWithin(() =>
      api('PATCH', `/zones/${z.id}/dns_records/${id}`, { content: '192.0.2.2' })
    )
    const deleted = await committedWithin(() => api('DELETE', `/zones/${z.id}/dns_records/${id}`))
    expect(created).toBeLessThanOrEqual(edited)
    expect(edited).toBeLessThanOrEqual(deleted)
  })

  it('a batch and a zone deletion carry it too', async () => {
    const z = await createZone()
    await committedWithin(() =>
      api('POST', `/zones/${z.id}/dns_records/batch`, {
        posts: [{ type: 'TXT', name: '@', content: '"v=spf1 -all"' }],
      })
    )
    await committedWithin(() => api('DELETE', `/zones/${z.id}`))
  })

  it('a write that changes nothing names no commit instant', async () => {
    const z = await createZone()
    const made = await api('POST', `/zones/${z.id}/dns_records`, {
      type: 'A',
      name: 'same',
      content: '192.0.2.9',
    })
    const id = made.body.result.id
    const res = await api('POST', `/zones/${z.id}/dns_records/batch`, {
      patches: [{ id, content: '192.0.2.9' }],
    })
    expect(res.status).toBe(200)
    expect(res.headers.get('x-edgedns-change-seq')).toBe(made.headers.get('x-edgedns-change-seq'))
    expect(res.headers.get(COMMITTED_AT)).toBeNull()
  })
})
