#!/usr/bin/env node
// The edgedns CLI. Runs the TypeScript sources directly with Node 22's built-in type stripping
// (the SDK uses erasable syntax only), so nothing needs building: `pnpm exec edgedns --help`.
process.removeAllListeners('warning') // hide the "Type Stripping is an experimental feature" notice
const { main } = await import('../src/cli/main.ts')
process.exitCode = await main(process.argv.slice(2), { env: process.env, stdout: process.stdout, stderr: process.stderr })
