/**
 * Case: matching ignores case; the question section keeps the query's
 * case byte for byte; answer owners equal to the question take its spelling (compression).
 */
import { beforeAll, describe, expect, it } from 'vitest'
import { ask, askJson } from './helpers/doh.ts'
import { seedZone } from './helpers/seed.ts'

beforeAll(() =>
  seedZone(
    'case.test',
    `
@      3600 IN SOA   ns1 hostmaster 1 7200 3600 1209600 300
www     300 IN A     192.0.2.1
alias   300 IN CNAME www
*.w     300 IN A     192.0.2.9
`
  )
)

describe('case', () => {
  it.each(['GET', 'POST'] as const)(
    'preserves the question case on the wire (%s)',
    async (method) => {
      const r = await ask('WwW.CaSe.TeSt', 'A', { method })
      expect(r.message.question).toEqual([
        { name: 'WwW.CaSe.TeSt.', type: 'A', typeCode: 1, class: 1 },
      ])
      expect(r.message.answer.map((rr) => `${rr.name} ${rr.data}`)).toEqual([
        'WwW.CaSe.TeSt. 192.0.2.1',
      ])
    }
  )

  it('a CNAME chain: first owner in the query case, the target as stored', async () => {
    const r = await ask('ALIAS.case.test', 'A')
    expect(r.message.question[0]?.name).toBe('ALIAS.case.test.')
    expect(r.message.answer.map((rr) => rr.name.toLowerCase())).toEqual([
      'alias.case.test.',
      'www.case.test.',
    ])
    expect(r.message.answer[0]?.name).toBe('ALIAS.case.test.')
  })

  it('wildcard synthesis keeps the query case', async () => {
    const r = await ask('Foo.W.case.test', 'A')
    expect(r.message.answer.map((rr) => rr.name)).toEqual(['Foo.W.case.test.'])
  })

  it('negative answers too', async () => {
    const r = await ask('NOPE.Case.Test', 'A')
    expect(r.rcode).toBe('NXDOMAIN')
    expect(r.message.question[0]?.name).toBe('NOPE.Case.Test.')
  })

  it('JSON: the question and matching owners keep the query spelling', async () => {
    const { body } = await askJson('WWW.Case.TEST', 'a')
    expect(body.Question).toEqual([{ name: 'WWW.Case.TEST.', type: 1 }])
    expect(body.Answer).toEqual([{ name: 'WWW.Case.TEST.', type: 1, TTL: 300, data: '192.0.2.1' }])
  })
})
