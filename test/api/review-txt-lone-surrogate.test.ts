/**
 * Review: TXT content is now kept as sent, but a lone UTF-16 surrogate is not refused (CAA, NAPTR,
 * URI and SVCB refuse them since 9994ce9). The create answer shows the content as sent while D1
 * keeps something else (three U+FFFD), so GET, the content filters, the wire and the export all
 * disagree with what the client was told it stored.
 */
import { describe, expect, it } from 'vitest'
import { api, createZone } from './helpers.ts'

describe('TXT content with a lone surrogate', () => {
  it('is refused, or stored exactly as the create answer says', async () => {
    const z = await createZone('surrogate')
    const content = 'acme-\ud800-token'
    const created = await api('POST', `/zones/${z.id}/dns_records`, {
      type: 'TXT',
      name: '_acme-challenge',
      content,
    })
    if (created.status === 400) return
    expect(created.status).toBe(200)
    const read = await api('GET', `/zones/${z.id}/dns_records/${created.body.result.id}`)
    // JSON text: a lone surrogate in an assertion message breaks the test pool's reporter.
    expect(JSON.stringify(read.body.result.content)).toBe(JSON.stringify(created.body.result.content))
    const found = await api(
      'GET',
      `/zones/${z.id}/dns_records?type=TXT&content.exact=${encodeURIComponent(content)}`
    )
    expect(found.body.result.length).toBe(1)
  })
})
