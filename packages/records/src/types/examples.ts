/** @module types/examples: key and digest material the type modules' examples share. */

/** A base64 public key (any valid base64 will do for CERT, DNSKEY, OPENPGPKEY examples). */
export const KEY_EXAMPLE = 'AwEAAagAIKlVZrpC6Ia7gEzahOR+9W29euxhJhVVLOyQbSEW0O8gcCjF'

/** A SHA-256 digest in hex (DS digest type 2, TLSA/SMIMEA matching type 1, SSHFP type 2). */
export const SHA256_EXAMPLE = '1f987cc6583e92df0890718c4281a8ad50a5c8f2c0ae82f8ea7dc08edfdd6d1f'
