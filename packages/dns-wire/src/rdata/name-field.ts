/**
 * @module A domain name inside rdata, written compressed only where RFC 3597 §4 allows it.
 */
import { writeNameText, type Compressor } from '../names.ts'
import type { ByteWriter } from '../writer.ts'
import { TextError } from './text.ts'

export function writeRdataName(
  w: ByteWriter,
  token: string | undefined,
  comp: Compressor | undefined
): void {
  if (token === undefined) throw new TextError('missing name')
  writeNameText(w, token, comp)
}
