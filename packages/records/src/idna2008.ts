/**
 * @module idna2008: whether a U-label is valid IDNA2008 (RFC 5891 §5.4), beyond what UTS 46
 * processing checks. UTS 46 keeps some code points valid that IDNA2008 disallows (symbols such as
 * U+2603, and the exceptions of RFC 5892 §2.6: U+0640 ARABIC TATWEEL, U+07FA, U+302E/U+302F,
 * U+3031–U+3035, U+303B), and it has no CONTEXTO rules (RFC 5892 Appendix A: middle dot, Greek
 * keraia, Hebrew geresh and gershayim, katakana middle dot, Arabic-Indic digits). The derived
 * property of RFC 5892 §3 is computed from the Unicode properties the JavaScript engine knows.
 * CONTEXTJ (the joiners) and the Bidi rule are tr46's (`checkJoiners`, `checkBidi`).
 */

const EXCEPTION_PVALID: ReadonlySet<number> = new Set([0xdf, 0x3c2, 0x6fd, 0x6fe, 0xf0b, 0x3007])
const EXCEPTION_DISALLOWED: ReadonlySet<number> = new Set([
  0x640, 0x7fa, 0x302e, 0x302f, 0x3031, 0x3032, 0x3033, 0x3034, 0x3035, 0x303b,
])
const ARABIC_INDIC = /[\u0660-\u0669]/
const EXTENDED_ARABIC_INDIC = /[\u06f0-\u06f9]/
const LDH = /^[a-z0-9-]$/
const JOIN_CONTROL = /^\p{Join_Control}$/u
/** RFC 5892 §2.2 Unstable: NFKC(casefold(NFKC(cp))) ≠ cp. */
const UNSTABLE = /^\p{Changes_When_NFKC_Casefolded}$/u
/** RFC 5892 §2.3 IgnorableProperties. */
const IGNORABLE = /^[\p{Default_Ignorable_Code_Point}\p{White_Space}\p{Noncharacter_Code_Point}]$/u
/**
 * RFC 5892 §2.4 IgnorableBlocks (Combining Diacritical Marks for Symbols, Musical Symbols, Ancient
 * Greek Musical Notation) and §2.9 OldHangulJamo (Hangul_Syllable_Type L, V or T).
 */
const BLOCKS_AND_JAMO =
  /^[\u20d0-\u20ff\u{1d100}-\u{1d1ff}\u{1d200}-\u{1d24f}\u1100-\u11ff\ua960-\ua97c\ud7b0-\ud7c6\ud7cb-\ud7fb]$/u
/** RFC 5892 §2.1 LetterDigits. */
const LETTER_DIGITS = /^[\p{Ll}\p{Lu}\p{Lo}\p{Nd}\p{Lm}\p{Mn}\p{Mc}]$/u
const ASSIGNED = /^\p{Assigned}$/u

type Property = 'PVALID' | 'CONTEXTJ' | 'CONTEXTO' | 'DISALLOWED'

/** The IDNA2008 derived property of one code point (RFC 5892 §3; unassigned ones are DISALLOWED here). */
function derivedProperty(ch: string): Property {
  const cp = ch.codePointAt(0)!
  if (EXCEPTION_PVALID.has(cp)) return 'PVALID'
  if (EXCEPTION_DISALLOWED.has(cp)) return 'DISALLOWED'
  if (cp === 0xb7 || cp === 0x375 || cp === 0x5f3 || cp === 0x5f4 || cp === 0x30fb)
    return 'CONTEXTO'
  if (ARABIC_INDIC.test(ch) || EXTENDED_ARABIC_INDIC.test(ch)) return 'CONTEXTO'
  if (!ASSIGNED.test(ch)) return 'DISALLOWED'
  if (LDH.test(ch)) return 'PVALID'
  if (JOIN_CONTROL.test(ch)) return 'CONTEXTJ'
  if (UNSTABLE.test(ch) || IGNORABLE.test(ch) || BLOCKS_AND_JAMO.test(ch)) return 'DISALLOWED'
  return LETTER_DIGITS.test(ch) ? 'PVALID' : 'DISALLOWED'
}

function codePoint(ch: string): string {
  return `U+${ch.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}`
}

/** The CONTEXTO rule of RFC 5892 Appendix A for the character at `i`: null when it holds. */
function contextoFault(chars: string[], i: number): string | null {
  const ch = chars[i]!
  const cp = ch.codePointAt(0)!
  const at = `${codePoint(ch)} at position ${i + 1}`
  switch (cp) {
    case 0xb7:
      return chars[i - 1] === 'l' && chars[i + 1] === 'l'
        ? null
        : `${at} (MIDDLE DOT) is allowed only between two 'l' (Catalan l·l)`
    case 0x375:
      return /^\p{Script=Greek}$/u.test(chars[i + 1] ?? '')
        ? null
        : `${at} (GREEK LOWER NUMERAL SIGN) must be followed by a Greek letter`
    case 0x5f3:
    case 0x5f4:
      return /^\p{Script=Hebrew}$/u.test(chars[i - 1] ?? '')
        ? null
        : `${at} (HEBREW GERESH / GERSHAYIM) must follow a Hebrew letter`
    case 0x30fb:
      return chars.some((c) => /^[\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Han}]$/u.test(c))
        ? null
        : `${at} (KATAKANA MIDDLE DOT) needs a Hiragana, Katakana or Han character in the label`
  }
  const mixed = ARABIC_INDIC.test(ch)
    ? chars.some((c) => EXTENDED_ARABIC_INDIC.test(c))
    : chars.some((c) => ARABIC_INDIC.test(c))
  return mixed
    ? `${at}: Arabic-Indic and Extended Arabic-Indic digits may not be mixed in one label`
    : null
}

/**
 * Why `label` (a U-label, after UTS 46 mapping: lowercase, NFC) is not valid IDNA2008, or null
 * when it is. The first fault is named, with its code point.
 */
export function idna2008Fault(label: string): string | null {
  const chars = [...label]
  for (let i = 0; i < chars.length; i++) {
    const ch = chars[i]!
    const property = derivedProperty(ch)
    if (property === 'DISALLOWED')
      return `${codePoint(ch)} at position ${i + 1} is not allowed in a domain name by IDNA2008 (RFC 5892)`
    if (property === 'CONTEXTO') {
      const fault = contextoFault(chars, i)
      if (fault !== null) return fault
    }
  }
  return null
}
