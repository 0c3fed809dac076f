#!/usr/bin/env node
// The edgedns CLI. In an installed package it runs the built `dist/cli.js`; in the repository,
// where the TypeScript sources sit beside it, it runs those with Node 22's type stripping (the
// SDK uses erasable syntax only), so nothing needs building there: `pnpm exec edgedns --help`.
import { existsSync } from 'node:fs'

const source = new URL('../src/cli/main.ts', import.meta.url)
let cli
if (existsSync(source)) {
  process.removeAllListeners('warning') // hide the "Type Stripping is an experimental feature" notice
  cli = await import(source.href)
} else cli = await import('../dist/cli.js')
process.exitCode = await cli.main(process.argv.slice(2), {
  env: process.env,
  stdout: process.stdout,
  stderr: process.stderr,
})
