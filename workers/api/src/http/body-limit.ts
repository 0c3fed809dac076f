/**
 * @module The request body cap. Bodies are read whole (JSON batches, multipart zone files), so the
 * cap keeps one request well inside the isolate's 128 MB: 32 MiB by default (the largest zone-file
 * import; a 100,000-change batch is about 15 MB of JSON), `MAX_BODY_BYTES` overrides it. A larger
 * body is refused with 413 / 10413 while it streams in, before it is parsed.
 */
export const DEFAULT_MAX_BODY_BYTES = 32 * 1024 * 1024

export function maxBodyBytes(env: { MAX_BODY_BYTES?: string }): number {
  const n = Number(env.MAX_BODY_BYTES)
  return env.MAX_BODY_BYTES !== undefined && Number.isInteger(n) && n > 0
    ? n
    : DEFAULT_MAX_BODY_BYTES
}
