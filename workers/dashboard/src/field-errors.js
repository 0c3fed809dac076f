/**
 * @module Places the API's validation errors next to the form field they are about.
 * Returns { [fieldKey]: message } with `_form` for errors that name no field.
 */
const CONTENT_CODES = new Set([
  9005,
  9006,
  9007,
  9009,
  9036,
  ...Array.from({ length: 16 }, (_, i) => 9121 + i),
])
const NAME_CODES = new Set([81053, 81054, 81058])

function fieldFor(error, keys) {
  const { code, message } = error
  const data = /\bdata\.([a-z_]+)/.exec(message)
  if (data && keys.has(`data.${data[1]}`)) return `data.${data[1]}`
  if (code === 9008 || code === 9100)
    return keys.has('priority') ? 'priority' : keys.has('data.priority') ? 'data.priority' : '_form'
  if (code === 9021) return 'ttl'
  if (code === 9041) return 'proxied'
  if (code === 9150) return 'comment'
  if (NAME_CODES.has(code)) return 'name'
  if (CONTENT_CODES.has(code) && keys.has('content')) return 'content'
  if (code === 9000 && /\bname\b/i.test(message)) return 'name'
  if (/\bcontent\b/i.test(message) && keys.has('content')) return 'content'
  return '_form'
}

export function fieldErrors(failure, fieldKeys) {
  const keys = new Set(fieldKeys)
  const out = {}
  for (const e of failure.errors ?? [{ code: 0, message: String(failure.message) }]) {
    const key = fieldFor(e, keys)
    out[key] = out[key] ? `${out[key]}; ${e.message}` : e.message
  }
  return out
}
