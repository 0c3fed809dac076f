/**
 * @module Builds the OpenAPI 3.1 document from OPERATIONS: request bodies from the routes' own zod
 * schemas (z.toJSONSchema), per-type `data` from the records REGISTRY, one envelope for every answer.
 */
import { REGISTRY, RECORD_TYPES } from '@edgedns/records'
import { z } from 'zod'
import { CHANGE_SEQ_HEADER, COMMITTED_AT_HEADER } from '../commit/zone-change.ts'
import { NAMED_SCHEMAS, OPERATIONS, RESPONSE_SCHEMAS } from './operations.ts'
import type { Operation, Param } from './operation.ts'

type Json = Record<string, unknown>

const API_BASE = '/client/v4'

function jsonSchema(schema: z.ZodType, io: 'input' | 'output'): Json {
  const named = NAMED_SCHEMAS.find(([, s]) => s === schema)
  if (named) return { $ref: `#/components/schemas/${named[0]}` }
  const out = z.toJSONSchema(schema, {
    io,
    unrepresentable: 'any',
    target: 'draft-2020-12',
  }) as Json
  delete out.$schema
  return out
}

function dataSchemas(): Record<string, Json> {
  const out: Record<string, Json> = {}
  for (const type of RECORD_TYPES) {
    const spec = REGISTRY[type]
    if (spec.kind !== 'data') continue
    const s = z.toJSONSchema(spec.dataSchema, { io: 'input', unrepresentable: 'any' }) as Json
    delete s.$schema
    out[`RecordData.${type}`] = { ...s, description: `data of a ${type} record` }
  }
  return out
}

/**
 * Replaces every schema nested in `s` that equals another named schema (zod writes nested schemas
 * out in full) with a reference to it.
 */
function withRefs(s: unknown, named: ReadonlyMap<string, string>, self: string): unknown {
  if (typeof s !== 'object' || s === null) return s
  const name = named.get(JSON.stringify(s))
  if (name !== undefined && name !== self) return { $ref: `#/components/schemas/${name}` }
  if (Array.isArray(s)) return s.map((v) => withRefs(v, named, self))
  return Object.fromEntries(Object.entries(s).map(([k, v]) => [k, withRefs(v, named, self)]))
}

function components(): Json {
  const schemas: Record<string, Json> = {}
  for (const [name, schema] of NAMED_SCHEMAS) {
    const io = RESPONSE_SCHEMAS.has(name) ? 'output' : 'input'
    const s = z.toJSONSchema(schema, { io, unrepresentable: 'any' }) as Json
    delete s.$schema
    schemas[name] = s
  }
  const named = new Map(Object.entries(schemas).map(([name, s]) => [JSON.stringify(s), name]))
  for (const name of Object.keys(schemas)) {
    const s = schemas[name]!
    schemas[name] = Object.fromEntries(
      Object.entries(s).map(([k, v]) => [k, withRefs(v, named, name)])
    )
  }
  const data = dataSchemas()
  Object.assign(schemas, data)
  // RecordInput.data is one of the per-type shapes (which one follows from `type`).
  const input = schemas.RecordInput as { properties: Record<string, Json> }
  input.properties.data = {
    description:
      'Structured fields for CAA, CERT, DNSKEY, DS, HTTPS, LOC, NAPTR, SMIMEA, SRV, SSHFP, SVCB, TLSA, URI; null is the same as leaving it out',
    anyOf: [
      ...Object.keys(data).map((k) => ({ $ref: `#/components/schemas/${k}` })),
      { type: 'null' },
    ],
  }
  input.properties.type = {
    type: 'string',
    enum: [...RECORD_TYPES],
    description: 'Record type (case-insensitive)',
  }
  schemas.Envelope = {
    type: 'object',
    required: ['success', 'errors', 'messages', 'result'],
    properties: {
      success: { type: 'boolean' },
      errors: { type: 'array', items: { $ref: '#/components/schemas/Error' } },
      messages: { type: 'array', items: { $ref: '#/components/schemas/Error' } },
      result: {},
      result_info: { $ref: '#/components/schemas/ResultInfo' },
    },
  }
  return {
    schemas,
    securitySchemes: { bearerAuth: { type: 'http', scheme: 'bearer', description: 'API token' } },
  }
}

function queryParam(p: Param): Json {
  const schema: Json = { type: p.type ?? 'string' }
  if (p.enum) schema.enum = p.enum
  return { name: p.name, in: 'query', required: false, description: p.description, schema }
}

function envelope(result: Json, list: boolean): Json {
  return {
    allOf: [
      { $ref: '#/components/schemas/Envelope' },
      {
        type: 'object',
        properties: {
          success: { const: true },
          result: list ? { type: 'array', items: result } : result,
        },
      },
    ],
  }
}

const failure = (description: string): Json => ({
  description,
  content: { 'application/json': { schema: { $ref: '#/components/schemas/Envelope' } } },
})

function operation(op: Operation): Json {
  const params = [...op.path.matchAll(/\{(\w+)\}/g)].map((m) => ({
    name: m[1],
    in: 'path',
    required: true,
    schema: { type: 'string', pattern: '^[0-9a-f]{32}$' },
  }))
  const out: Json = {
    tags: [op.tag],
    summary: op.summary,
    ...(op.description === undefined ? {} : { description: op.description }),
    operationId: `${op.method}${op.path.replace(/\{(\w+)\}/g, 'By_$1').replace(/[^A-Za-z0-9]+(.)?/g, (_, c: string | undefined) => (c ?? '').toUpperCase())}`,
    parameters: [...params, ...(op.query ?? []).map(queryParam)],
  }
  if (op.public) out.security = []
  if (op.body)
    out.requestBody = {
      required: true,
      content: { 'application/json': { schema: jsonSchema(op.body, 'input') } },
    }
  if (op.form)
    out.requestBody = {
      required: true,
      content: { 'multipart/form-data': { schema: jsonSchema(op.form, 'input') } },
    }
  if (op.binaryBody)
    out.requestBody = {
      required: true,
      content: { [op.binaryBody]: { schema: { type: 'string', format: 'binary' } } },
    }
  let ok: Json
  if (op.result === 'binary')
    ok = {
      description: 'DNS messages, each with its two-octet TCP length prefix, streamed',
      content: { 'application/octet-stream': { schema: { type: 'string', format: 'binary' } } },
    }
  else if (op.result === 'text')
    ok = {
      description: 'BIND zone file',
      content: { 'text/plain': { schema: { type: 'string' } } },
    }
  else if (op.result === 'html')
    ok = { description: 'HTML page', content: { 'text/html': { schema: { type: 'string' } } } }
  else if (op.result === 'json')
    ok = {
      description: 'OpenAPI document',
      content: { 'application/json': { schema: { type: 'object' } } },
    }
  else
    ok = {
      description: 'Success',
      content: {
        'application/json': { schema: envelope(jsonSchema(op.result, 'output'), op.list === true) },
      },
    }
  out.responses = op.public
    ? { 200: ok }
    : {
        [op.status ?? 200]: ok,
        400: failure('Validation error or conflict'),
        403: failure('Bad or insufficient token'),
        404: failure('Unknown zone or record'),
        429: {
          ...failure(
            "Rate limited: the token's requests, failed authentications from the address, or a zone's full rebuilds or activation checks; wait `retry-after` seconds"
          ),
          headers: {
            'retry-after': { schema: { type: 'integer' }, description: 'Seconds to wait' },
          },
        },
      }
  return out
}

export function buildDocument(serverUrl = API_BASE): Json {
  const paths: Record<string, Json> = {}
  for (const op of OPERATIONS) {
    paths[op.path] ??= {}
    paths[op.path]![op.method] = operation(op)
  }
  return {
    openapi: '3.1.0',
    jsonSchemaDialect: 'https://json-schema.org/draft/2020-12/schema',
    info: {
      title: 'edgedns API',
      version: '1.0.0',
      description: `Cloudflare-compatible DNS zones and records API (v4 envelope). Write responses carry the committed change sequence in the ${CHANGE_SEQ_HEADER} header and, when they changed anything, the API's clock at the commit (ms since the epoch) in ${COMMITTED_AT_HEADER}. Each API token may make its account's api_rate_limit of requests per 5 minutes (default 1,200, as Cloudflare's; counted a fifth of it per minute): answers carry \`ratelimit-policy\` (for example \`"default";q=240;w=60\`), and past the limit the API answers 429 (code 971) with \`retry-after\` and \`ratelimit\`.`,
    },
    servers: [{ url: serverUrl }],
    security: [{ bearerAuth: [] }],
    tags: [...new Set(OPERATIONS.map((o) => o.tag))].map((name) => ({ name })),
    paths,
    components: components(),
  }
}

let cached: Json | undefined
export function openApiDocument(): Json {
  cached ??= buildDocument()
  return cached
}
