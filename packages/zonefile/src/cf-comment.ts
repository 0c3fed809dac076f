/**
 * @module cf-comment — Cloudflare's record-comment convention in zone files:
 * `; <comment> cf_tags=tag1,tag2:value,tag3:"v,with,commas"` with the reserved tags
 * `cf-proxied:true|false` and `cf-flatten-cname`.
 */

export interface CfComment {
  comment?: string
  tags: string[]
  proxied?: boolean
  flattenCname?: boolean
}

const MARKER = /(?:^|\s)cf_tags=/g
const HAS_MARKER = /(?:^|\s)cf_tags=/
const PROXIED = 'cf-proxied'
const FLATTEN = 'cf-flatten-cname'

/** Splits a tag list on commas and whitespace outside double quotes, removing the quotes. */
function splitTags(list: string): string[] {
  const tags: string[] = []
  let current = ''
  let quoted = false
  let touched = false
  for (let k = 0; k < list.length; k++) {
    const c = list[k]!
    if (quoted) {
      if (c === '\\' && k + 1 < list.length) current += list[++k]
      else if (c === '"') quoted = false
      else current += c
    } else if (c === '"') {
      quoted = true
      touched = true
    } else if (c === ',' || /\s/.test(c)) {
      if (current !== '' || touched) tags.push(current)
      current = ''
      touched = false
    } else {
      current += c
    }
  }
  if (current !== '' || touched) tags.push(current)
  return tags
}

/** Parses `true`/`false` (any case); a bare reserved tag means true. */
function flag(tag: string, name: string): boolean | undefined {
  const lower = tag.toLowerCase()
  if (lower === name || lower === `${name}:true`) return true
  if (lower === `${name}:false`) return false
  return undefined
}

/**
 * Splits a record comment, as the zone-file parser gives it (the text after the `;` that starts
 * it, so a comment that itself starts with `;` keeps it), into the free comment, the tags and
 * the reserved `cf-proxied` / `cf-flatten-cname` flags.
 */
export function parseCfComment(comment: string | undefined): CfComment {
  const text = (comment ?? '').trim()
  const markers = [...text.matchAll(MARKER)]
  const marker = markers[markers.length - 1]
  const free = marker ? text.slice(0, marker.index).trim() : text
  const result: CfComment = { tags: [] }
  if (free !== '') result.comment = free
  if (!marker) return result
  for (const tag of splitTags(text.slice(marker.index + marker[0].length))) {
    const proxied = flag(tag, PROXIED)
    const flatten = flag(tag, FLATTEN)
    if (proxied !== undefined) result.proxied = proxied
    else if (flatten !== undefined) result.flattenCname = flatten
    else result.tags.push(tag)
  }
  return result
}

/** Quotes a tag's value (or the whole tag) if it holds a comma, whitespace, quote or backslash. */
function formatTag(tag: string): string {
  if (!/[\s,"\\]/.test(tag) && tag !== '') return tag
  const colon = tag.indexOf(':')
  // `=` is escaped too, so a quoted value never holds text that reads as the `cf_tags=` marker.
  const quote = (s: string) => `"${s.replace(/[\\"=]/g, (c) => `\\${c}`)}"`
  return colon === -1 ? quote(tag) : `${tag.slice(0, colon + 1)}${quote(tag.slice(colon + 1))}`
}

/** Inverse of parseCfComment, without the leading ';'. Returns '' when there is nothing to say. */
export function formatCfComment(c: {
  comment?: string | null
  tags?: string[]
  proxied?: boolean
  flattenCname?: boolean
}): string {
  const parts: string[] = []
  const free = (c.comment ?? '').replace(/[\r\n]+/g, ' ').trim()
  if (free !== '') parts.push(free)
  const tags = (c.tags ?? []).map(formatTag)
  if (c.proxied !== undefined) tags.push(`${PROXIED}:${c.proxied}`)
  if (c.flattenCname) tags.push(FLATTEN)
  // The last marker is the one that counts: a comment that holds one gets an empty list after it.
  if (tags.length > 0 || HAS_MARKER.test(free)) parts.push(`cf_tags=${tags.join(',')}`)
  return parts.join(' ')
}
