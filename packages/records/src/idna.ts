/**
 * @module idna: one name (no wildcard label) through UTS 46 processing, nontransitional, with the
 * IDNA2008 validity checks (joiners, bidi, Punycode labels decoded and re-validated), by `tr46`.
 * Mapping happens where UTS 46 maps (case, width, compatibility forms); what it disallows is refused
 * with the offending code point named. Stricter than UTS 46 in one respect: invisible format
 * characters it would silently drop (U+200B zero width space, U+00AD soft hyphen, U+FEFF, U+2060…)
 * are refused, as IDNA2008 disallows them, so two names that look alike cannot differ by them.
 */
import tr46 from 'tr46'
import { fail } from './errors.ts'

const OPTIONS = {
  checkHyphens: false,
  checkBidi: true,
  checkJoiners: true,
  // '_' is valid in DNS owner names (_sip._tcp): the ASCII character rules are applied by the caller.
  useSTD3ASCIIRules: false,
  transitionalProcessing: false,
  verifyDNSLength: false,
  ignoreInvalidPunycode: false,
} as const

// Format characters other than the joiners, which CheckJoiners judges in context.
const INVISIBLE_FORMAT = /(?![\u200c\u200d])\p{Cf}/u
// C0/C1 controls, lone surrogates, U+FFFD, noncharacters: named in the error when present.
const NAMED_FAULT =
  /[\p{Cc}\p{Cs}\ufffd\ufdd0-\ufdef]|[\ufffe\uffff\u{1fffe}\u{1ffff}\u{2fffe}\u{2ffff}\u{3fffe}\u{3ffff}\u{4fffe}\u{4ffff}\u{5fffe}\u{5ffff}\u{6fffe}\u{6ffff}\u{7fffe}\u{7ffff}\u{8fffe}\u{8ffff}\u{9fffe}\u{9ffff}\u{afffe}\u{affff}\u{bfffe}\u{bffff}\u{cfffe}\u{cffff}\u{dfffe}\u{dffff}\u{efffe}\u{effff}\u{ffffe}\u{fffff}\u{10fffe}\u{10ffff}]/u

function codePoint(ch: string): string {
  return `U+${ch.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}`
}

function faultIn(name: string): string | undefined {
  // Scan by code unit for lone surrogates (a \p{Cs} match with the u flag only finds unpaired ones).
  const m = NAMED_FAULT.exec(name) ?? INVISIBLE_FORMAT.exec(name)
  return m ? codePoint(m[0]) : undefined
}

/** `name` (labels joined by '.', any of the IDN full stops) → lowercase ASCII, or a FieldError. */
export function idnaToAscii(name: string): string {
  const fault = faultIn(name)
  if (fault !== undefined)
    fail(`${JSON.stringify(name)} contains ${fault}, which is not allowed in a domain name`)
  const ascii = tr46.toASCII(name, OPTIONS)
  if (ascii === null) {
    fail(`${JSON.stringify(name)} is not a valid internationalised domain name (UTS 46 / IDNA2008)`)
  }
  return ascii
}

/** A label of a name `idnaToAscii` accepted → its Unicode form (an A-label decoded, any other as is). */
export function idnaLabelToUnicode(label: string): string {
  return tr46.toUnicode(label, OPTIONS).domain
}
