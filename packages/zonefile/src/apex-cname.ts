/**
 * @module apex-cname — a CNAME at a zone's apex (Cloudflare's CNAME flattening) in a zone file.
 * No name server can load it beside the apex SOA and NS (`named-checkzone`: "CNAME and other
 * data"), so the serializer writes it as a comment line starting with `APEX_CNAME_MARK`, the
 * record line after it (`; apex-cname: example.com.\t300\tIN\tCNAME\ttarget.example.net. ; …`),
 * and `uncommentApexCname` makes such a line a record line again before an import parses the file.
 */

/** What starts the comment line of an apex CNAME. */
export const APEX_CNAME_MARK = '; apex-cname: '

const escapeRegExp = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')

/**
 * `text` with the comment lines of `APEX_CNAME_MARK` whose record is a CNAME owned by `origin`
 * (absolute, any case, final dot or not) made record lines again; other lines as they are, and
 * `text` itself when it holds no such mark. Line numbers do not change.
 */
export function uncommentApexCname(text: string, origin: string): string {
  if (!text.includes(APEX_CNAME_MARK)) return text
  const apex = escapeRegExp(origin.replace(/\.$/, ''))
  const line = new RegExp(
    `^${escapeRegExp(APEX_CNAME_MARK)}(?=${apex}\\.[ \\t]+(?:\\d+[ \\t]+)?IN[ \\t]+CNAME[ \\t])`,
    'gim'
  )
  return text.replace(line, '')
}
