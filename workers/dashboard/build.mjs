#!/usr/bin/env node
/**
 * Bundles the dashboard (src/main.js: Preact + htm) into public/app.js with esbuild. The bundle is
 * committed, so `pnpm dev`, the tests and the API worker's static assets serve it without a build
 * step; test/e2e/dashboard-bundle.test.ts fails when it is out of date. Run after editing src/:
 *   pnpm --filter @edgedns/dashboard build
 */
import { build } from 'esbuild'
import { writeFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import path from 'node:path'

const here = path.dirname(fileURLToPath(import.meta.url))
export const OUTFILE = path.join(here, 'public/app.js')

/** The bundle's text (deterministic for a given source tree and esbuild version). */
export async function bundle() {
  const out = await build({
    entryPoints: [path.join(here, 'src/main.js')],
    bundle: true,
    format: 'esm',
    target: 'es2022',
    minify: true,
    legalComments: 'none',
    write: false,
    logLevel: 'silent',
    banner: {
      js: '// Built from workers/dashboard/src by workers/dashboard/build.mjs — do not edit.',
    },
  })
  return out.outputFiles[0].text
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  writeFileSync(OUTFILE, await bundle())
  console.log(`wrote ${path.relative(process.cwd(), OUTFILE)}`)
}
