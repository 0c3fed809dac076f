/**
 * @module base64url decoding for `?dns=` (RFC 4648 §5): padding tolerated, anything else rejected.
 */

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_'
const VALUES = new Int8Array(128).fill(-1)
for (let i = 0; i < ALPHABET.length; i++) VALUES[ALPHABET.charCodeAt(i)] = i

/** Longest base64url text (unpadded, plus room for padding) of a message of at most `bytes`. */
export function maxBase64UrlLength(bytes: number): number {
  return Math.ceil((bytes * 4) / 3) + 2
}

/** Decoded bytes, or null when the text is not base64url (bad character or impossible length). */
export function decodeBase64Url(text: string): Uint8Array | null {
  let end = text.length
  while (end > 0 && text.charCodeAt(end - 1) === 61 /* = */) end--
  if (text.length - end > 2) return null
  if (end % 4 === 1) return null
  const out = new Uint8Array(Math.floor((end * 3) / 4))
  let acc = 0
  let bits = 0
  let o = 0
  for (let i = 0; i < end; i++) {
    const c = text.charCodeAt(i)
    const v = c < 128 ? (VALUES[c] as number) : -1
    if (v < 0) return null
    acc = (acc << 6) | v
    bits += 6
    if (bits >= 8) {
      bits -= 8
      out[o++] = (acc >> bits) & 0xff
    }
  }
  return out
}
