/**
 * Every lookup keyed by a client's value refuses the names every plain object inherits
 * (`constructor`, `__proto__`, `toString`, `hasOwnProperty`) with a 4xx, never a 500.
 */
import { describe, expect, it } from 'vitest'
import { api, createZone, DEFAULT_ACCOUNT } from './helpers.ts'
import { importZone } from './import-export-helpers.ts'

const INHERITED = ['constructor', '__proto__', 'toString', 'hasOwnProperty'] as const

/** A 4xx with the Cloudflare error envelope. */
function expectRefused(res: { status: number; body: any }, what: string): void {
  expect({ what, status: res.status, success: res.body?.success }).toEqual({
    what,
    status: 400,
    success: false,
  })
}

describe('client values that name inherited object properties', () => {
  it.each(INHERITED)('GET /zones refuses order and direction %s', async (word) => {
    expectRefused(await api('GET', `/zones?order=${word}`), `order=${word}`)
    expectRefused(await api('GET', `/zones?direction=${word}`), `direction=${word}`)
  })

  it.each(INHERITED)(
    'GET /dns_records refuses order, direction, match and tag_match %s',
    async (word) => {
      const z = await createZone('inherited-list')
      for (const param of ['order', 'direction', 'match', 'tag_match'])
        expectRefused(
          await api('GET', `/zones/${z.id}/dns_records?${param}=${word}`),
          `${param}=${word}`
        )
    }
  )

  it.each(INHERITED)('a record of type %s, or with that mnemonic, is refused', async (word) => {
    const z = await createZone('inherited-type')
    expectRefused(
      await api('POST', `/zones/${z.id}/dns_records`, { type: word, name: 'x', content: 'y' }),
      `type ${word}`
    )
    for (const content of [`2371 ${word} 2 ${'ab'.repeat(32)}`, `${word} 1 13 AAAA`])
      expectRefused(
        await api('POST', `/zones/${z.id}/dns_records`, {
          type: content.startsWith(word) ? 'CERT' : 'DS',
          name: 'x',
          content,
        }),
        content
      )
  })

  it.each(INHERITED)('a zone file with type or class %s is refused', async (word) => {
    const z = await createZone('inherited-import')
    for (const line of [`x 300 IN ${word} 192.0.2.1`, `x 300 ${word} A 192.0.2.1`])
      expectRefused(await importZone(z.id, `${line}\n`), line)
  })

  it.each(INHERITED)('a token with permission group %s is refused', async (word) => {
    const res = await api('POST', '/user/tokens', {
      name: `inherited-${word}`,
      policies: [
        {
          effect: 'allow',
          permission_groups: [{ name: word }],
          resources: { [`com.cloudflare.api.account.${DEFAULT_ACCOUNT}`]: '*' },
        },
      ],
    })
    expectRefused(res, `permission group ${word}`)
  })
})
