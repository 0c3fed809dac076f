/**
 * @module Turns the component schemas of an OpenAPI 3.1 document into one TypeScript interface,
 * `ApiSchemas`, whose members are the components by name. Covers the JSON Schema that zod's
 * `toJSONSchema` emits: objects, arrays, scalars, `null`, `enum`, `const`, `anyOf`/`oneOf`,
 * `allOf`, type lists and `$ref`s to other components. Anything else becomes `unknown`.
 */

export interface JsonSchema {
  $ref?: string
  type?: string | string[]
  enum?: unknown[]
  const?: unknown
  anyOf?: JsonSchema[]
  oneOf?: JsonSchema[]
  allOf?: JsonSchema[]
  properties?: Record<string, JsonSchema>
  required?: string[]
  additionalProperties?: boolean | JsonSchema
  items?: JsonSchema
  description?: string
}

const COMPONENT_REF = '#/components/schemas/'
const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/

function key(name: string): string {
  return IDENTIFIER.test(name) ? name : JSON.stringify(name)
}

function doc(description: string | undefined, indent: string): string {
  return description ? `${indent}/** ${description.replace(/\*\//g, '*\\/')} */\n` : ''
}

function union(parts: string[]): string {
  const unique = [...new Set(parts)]
  return unique.length === 1
    ? unique[0]!
    : unique.map((p) => (p.includes(' ') && !p.startsWith('{') ? `(${p})` : p)).join(' | ')
}

function objectType(s: JsonSchema, indent: string): string {
  const inner = `${indent}  `
  const required = new Set(s.required ?? [])
  const lines = Object.entries(s.properties ?? {}).map(
    ([name, p]) =>
      `${doc(p.description, inner)}${inner}${key(name)}${required.has(name) ? '' : '?'}: ${typeOf(p, inner)}`
  )
  const extra = s.additionalProperties
  if (extra !== undefined && extra !== false) {
    // Named properties must fit the index signature, so beside them it can only be `unknown`.
    const value = extra === true || s.properties !== undefined ? 'unknown' : typeOf(extra, inner)
    lines.push(`${inner}[key: string]: ${value}`)
  }
  return lines.length === 0 ? 'Record<string, never>' : `{\n${lines.join('\n')}\n${indent}}`
}

function scalar(type: string, s: JsonSchema, indent: string): string {
  switch (type) {
    case 'string':
      return 'string'
    case 'number':
    case 'integer':
      return 'number'
    case 'boolean':
      return 'boolean'
    case 'null':
      return 'null'
    case 'array':
      return s.items === undefined ? 'unknown[]' : `${wrap(typeOf(s.items, indent))}[]`
    case 'object':
      return objectType(s, indent)
    default:
      return 'unknown'
  }
}

function wrap(t: string): string {
  return /^[\w.'"[\]]+$/.test(t) || t.startsWith('{') || t.startsWith('ApiSchemas[') ? t : `(${t})`
}

function ref(name: string): string {
  return `ApiSchemas[${JSON.stringify(name)}]`
}

/** The TypeScript type of one schema; `indent` is the indentation of the line it starts on. */
export function typeOf(s: JsonSchema, indent = ''): string {
  if (s.$ref !== undefined)
    return s.$ref.startsWith(COMPONENT_REF) ? ref(s.$ref.slice(COMPONENT_REF.length)) : 'unknown'
  if (s.const !== undefined) return JSON.stringify(s.const)
  if (s.enum !== undefined) return union(s.enum.map((v) => JSON.stringify(v)))
  const alternatives = s.anyOf ?? s.oneOf
  if (alternatives !== undefined) return union(alternatives.map((a) => typeOf(a, indent)))
  if (s.allOf !== undefined) return s.allOf.map((a) => wrap(typeOf(a, indent))).join(' & ')
  if (Array.isArray(s.type)) return union(s.type.map((t) => scalar(t, s, indent)))
  if (s.type !== undefined) return scalar(s.type, s, indent)
  if (s.properties !== undefined) return objectType(s, indent)
  return 'unknown'
}

/** The module text: `export interface ApiSchemas { Name: type; … }`, components in document order. */
/**
 * The module: `ApiSchemas` from the component schemas, then one exported string constant per entry
 * of `constants` (protocol names the API defines, such as response header names).
 */
export function apiSchemasModule(
  schemas: Record<string, JsonSchema>,
  header: string,
  constants: Record<string, string> = {}
): string {
  const members = Object.entries(schemas).map(
    ([name, s]) => `${doc(s.description, '  ')}  ${key(name)}: ${typeOf(s, '  ')}`
  )
  const consts = Object.entries(constants).map(
    ([name, value]) => `\nexport const ${name} = ${JSON.stringify(value)}\n`
  )
  return `${header}\nexport interface ApiSchemas {\n${members.join('\n')}\n}\n${consts.join('')}`
}
