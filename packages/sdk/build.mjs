// Builds the publishable package into dist/: one ESM bundle for the client (web APIs only, any
// runtime) and one for the CLI (Node), with TypeScript declarations beside them. Runs before
// `npm pack` / `npm publish` (prepack); the repository itself uses the sources directly.
import { execFileSync } from 'node:child_process'
import { rmSync } from 'node:fs'
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'
import { build } from 'esbuild'

const here = new URL('.', import.meta.url).pathname
const require = createRequire(import.meta.url)
rmSync(`${here}dist`, { recursive: true, force: true })
const common = {
  bundle: true,
  format: 'esm',
  target: 'es2022',
  absWorkingDir: here,
  logLevel: 'warning',
}
await build({
  ...common,
  entryPoints: ['src/index.ts'],
  outfile: 'dist/index.js',
  platform: 'neutral',
})
await build({
  ...common,
  entryPoints: ['src/cli/main.ts'],
  outfile: 'dist/cli.js',
  platform: 'node',
})
const tsc = join(dirname(require.resolve('typescript/package.json')), 'bin', 'tsc')
execFileSync(process.execPath, [tsc, '-p', 'tsconfig.build.json'], { cwd: here, stdio: 'inherit' })
