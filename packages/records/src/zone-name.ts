/**
 * @module zone-name: the name of a new zone. Beyond a DNS name's rules (normalizeZoneName), a zone
 * is a domain one registers, so its name is a host name, as Cloudflare requires: every label of
 * letters, digits and hyphens, no label beginning or ending with a hyphen (RFC 952, RFC 1123 §2.1),
 * no underscore (`_dmarc.example.com` is a record name, not a zone), a last label that is not all
 * digits (`1.2.3.4` is an IPv4 address; no top-level domain is numeric, RFC 3696 §2), and every
 * internationalised label valid IDNA2008 (idna2008.ts; UTS 46 alone keeps U+0640 ARABIC TATWEEL
 * and symbols). Record names keep their own rules: this applies to new zones only, so a zone
 * created before these rules keeps working.
 */
import { ERROR_CODES, FieldError, RecordError, fail } from './errors.ts'
import { idnaLabelToUnicode } from './idna.ts'
import { idna2008Fault } from './idna2008.ts'
import { normalizeZoneName } from './names.ts'

/** Why `ascii` (a normalised zone name) may not name a new zone, as a FieldError. */
function checkHostName(ascii: string): void {
  const labels = ascii.split('.')
  for (const label of labels) {
    const unicode = label.startsWith('xn--') ? idnaLabelToUnicode(label) : label
    const shown =
      unicode === label ? JSON.stringify(label) : `${JSON.stringify(unicode)} (${label})`
    if (unicode.includes('_'))
      fail(
        `label ${shown} contains '_': a zone name is a host name (letters, digits and hyphens); underscores belong in record names such as _dmarc.<zone>`
      )
    if (unicode.startsWith('-') || unicode.endsWith('-'))
      fail(
        `label ${shown} ${unicode.startsWith('-') ? 'starts' : 'ends'} with a hyphen: a zone name's labels begin and end with a letter or digit`
      )
    const fault = unicode === label ? null : idna2008Fault(unicode)
    if (fault !== null) fail(`label ${shown} is not a valid IDNA2008 label: ${fault}`)
  }
  const last = labels.at(-1)!
  if (/^[0-9]+$/.test(last))
    fail(
      `the last label ${JSON.stringify(last)} is all digits: no top-level domain is (a name such as 192.0.2.1 is an IP address, not a zone)`
    )
}

/**
 * Normalise the name of a zone being created: normalizeZoneName's form and rules, and a host name
 * valid in IDNA2008 (RecordError 1099 naming the reason otherwise).
 * @example normalizeNewZoneName('Bücher.Example.') // 'xn--bcher-kva.example'
 */
export function normalizeNewZoneName(name: string): string {
  const ascii = normalizeZoneName(name)
  try {
    checkHostName(ascii)
  } catch (e) {
    if (e instanceof FieldError)
      throw new RecordError(ERROR_CODES.ZONE_NAME_INVALID, `Invalid zone name: ${e.message}`)
    throw e
  }
  return ascii
}
