import { RECORD_TYPES, REGISTRY } from '@edgedns/records'
import { TYPE_CODES } from '@edgedns/dns-facts'
import {
  decodeMessage,
  decodeQuery,
  encodeQuery,
  encodeRdata,
  encodeResponse,
  replyTo,
} from '@edgedns/dns-wire'
import { describe, expect, it } from 'vitest'
import { resolve } from './resolve.ts'
import { zones } from './test-helpers/zone.ts'

/** Every API type of the registry, with the example its own module gives. */
const EXAMPLES = RECORD_TYPES.map((type) => [type, REGISTRY[type].example.presentation] as const)

const owner = (type: string): string => `t-${type.toLowerCase()}.example.org`

const view = zones({
  'example.org': EXAMPLES.map(([type, rdata]) => `${owner(type)}. 300 IN ${type} ${rdata}`).join(
    '\n'
  ),
})

describe('every registered type resolves, encodes on the wire and decodes back', () => {
  it.each(EXAMPLES)('%s', async (type, rdata) => {
    const code = TYPE_CODES[type]
    const query = decodeQuery(encodeQuery(owner(type), code))
    const r = await resolve(view, query.question)
    // NS below the apex is a delegation: the record comes back as a referral's authority.
    const records = type === 'NS' ? r.authority : r.answer
    expect(records.map((rr) => rr.type)).toEqual([code])

    const message = decodeMessage(encodeResponse(replyTo(query, r)))
    const [got] = type === 'NS' ? message.authority : message.answer
    expect(got).toMatchObject({ name: `${owner(type)}.`, type, ttl: 300 })
    expect(encodeRdata(code, got!.data)).toEqual(encodeRdata(code, rdata))
  })
})
