#!/usr/bin/env node
/** Writes workers/api/src/db/bundled-migrations.ts from migrations/*.sql (run by `pnpm db:generate`). */
import { writeFileSync } from 'node:fs'
import path from 'node:path'
import { BUNDLE_PATH, renderBundle } from './lib/bundle-migrations.mjs'
import { ROOT } from './lib/stack.mjs'

writeFileSync(path.join(ROOT, BUNDLE_PATH), renderBundle(path.join(ROOT, 'migrations')))
console.log(`wrote ${BUNDLE_PATH}`)
