import { describe, expect, it } from 'vitest'
import { CHANGE_SEQ_HEADER } from '../../workers/api/src/commit/zone-change.ts'
import { buildDocument } from '../../workers/api/src/openapi/document.ts'
import { apiSchemasModule, typeOf, type JsonSchema } from './json-schema-to-ts.ts'

const HEADER = `/**
 * @module The API's shapes, generated from its OpenAPI document, which is generated from the zod
 * schemas the API validates requests and describes answers with. Do not edit: after changing
 * those schemas run \`pnpm --filter @edgedns/sdk generate\` (scripts/sdk-types/api-types.test.ts rewrites this file).
 */`

describe('the SDK API types', () => {
  it('are the components of the API OpenAPI document and its header names, as generated now', async () => {
    const doc = buildDocument() as { components: { schemas: Record<string, JsonSchema> } }
    const { Envelope: _envelope, ...schemas } = doc.components.schemas
    await expect(apiSchemasModule(schemas, HEADER, { CHANGE_SEQ_HEADER })).toMatchFileSnapshot(
      '../../packages/sdk/src/api-types.generated.ts'
    )
  })
})

describe('JSON Schema to TypeScript', () => {
  it('marks properties outside `required` optional and documents them', () => {
    const t = typeOf({
      type: 'object',
      properties: { a: { type: 'string', description: 'the a' }, b: { type: 'integer' } },
      required: ['a'],
      additionalProperties: false,
    })
    expect(t).toBe('{\n  /** the a */\n  a: string\n  b?: number\n}')
  })

  it('turns type lists, enums, consts and anyOf into unions and refs into ApiSchemas members', () => {
    expect(typeOf({ type: ['string', 'null'] })).toBe('string | null')
    expect(typeOf({ enum: ['A', 'AAAA'] })).toBe('"A" | "AAAA"')
    expect(typeOf({ const: true })).toBe('true')
    expect(typeOf({ anyOf: [{ $ref: '#/components/schemas/Record' }, { type: 'null' }] })).toBe(
      'ApiSchemas["Record"] | null'
    )
    expect(
      typeOf({ type: 'array', items: { anyOf: [{ type: 'string' }, { type: 'number' }] } })
    ).toBe('(string | number)[]')
  })

  it('gives open objects an index signature and maps records to their value type', () => {
    expect(typeOf({ type: 'object', properties: {}, additionalProperties: {} })).toBe(
      '{\n  [key: string]: unknown\n}'
    )
    expect(typeOf({ type: 'object', additionalProperties: { type: 'integer' } })).toBe(
      '{\n  [key: string]: number\n}'
    )
  })

  it('leaves what it does not know as unknown', () => {
    expect(typeOf({})).toBe('unknown')
    expect(typeOf({ $ref: 'https://example.com/other.json' })).toBe('unknown')
  })
})
