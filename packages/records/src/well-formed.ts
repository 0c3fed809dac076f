/**
 * @module well-formed: whether text is well-formed Unicode. A lone UTF-16 surrogate has no UTF-8
 * encoding, so text holding one cannot be stored, served or exported as it was sent (D1, the wire
 * and the zone file would all carry U+FFFD instead); record fields, comments and tags refuse it.
 */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/

/** True when `s` holds no lone surrogate (what `String.prototype.isWellFormed` answers). */
export function isWellFormedText(s: string): boolean {
  return !LONE_SURROGATE.test(s)
}

/** The end of the error message for text that is not well-formed, after the field's name. */
export const NOT_WELL_FORMED = 'must be well-formed Unicode (it holds a lone surrogate)'
