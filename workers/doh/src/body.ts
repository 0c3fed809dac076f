/**
 * @module Reading a POST body with a size limit, without buffering more than the limit.
 */

/** The body bytes, or null when it is longer than `limit`. */
export async function readLimited(req: Request, limit: number): Promise<Uint8Array | null> {
  const declared = req.headers.get('content-length')
  if (declared !== null && Number(declared) > limit) return null
  if (!req.body) return new Uint8Array(0)
  const reader = req.body.getReader()
  const chunks: Uint8Array[] = []
  let total = 0
  for (;;) {
    const { done, value } = await reader.read()
    if (done) break
    total += value.byteLength
    if (total > limit) {
      await reader.cancel().catch(() => {})
      return null
    }
    chunks.push(value)
  }
  if (chunks.length === 1) return chunks[0] as Uint8Array
  const out = new Uint8Array(total)
  let offset = 0
  for (const c of chunks) {
    out.set(c, offset)
    offset += c.byteLength
  }
  return out
}
