import path from 'node:path'
import { fileURLToPath } from 'node:url'

/** Where the end-to-end tests keep the tools they install (virtual environments, Go binaries). */
export const CACHE = path.resolve(
  path.dirname(fileURLToPath(import.meta.url)),
  '../../../node_modules/.cache'
)
