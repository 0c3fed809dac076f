/**
 * @module Public suffixes (the Public Suffix List, bundled by `tldts`): names under which anyone may
 * register a domain, such as `com`, `co.uk` or `github.io`. A zone may not be one: it would answer
 * for every domain registered under it, and block every other account from adding one.
 */
import { parse } from 'tldts'

const OPTIONS = { allowPrivateDomains: true, extractHostname: false, validateHostname: false }

/**
 * True when `name` (a normalised zone name) is itself a rule of the list, ICANN or private
 * section. Names the list does not know, such as the reserved `test`, `example`, `invalid` and
 * `localhost` (RFC 2606, RFC 6761), are not: `tldts` treats an unknown top label as a suffix by
 * default, which is why the match must also come from the list.
 */
export function isPublicSuffix(name: string): boolean {
  const parsed = parse(name, OPTIONS)
  return parsed.publicSuffix === name && (parsed.isIcann === true || parsed.isPrivate === true)
}
