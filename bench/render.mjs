#!/usr/bin/env node
/**
 * @module `node bench/render.mjs`: rewrites BENCHMARKS.md and the charts from
 * bench/results/latest.json without measuring anything (after a change to the report's wording).
 */
import { readFileSync } from 'node:fs'
import { RESULTS, writeOutputs } from './lib/output.mjs'

const n = writeOutputs(JSON.parse(readFileSync(RESULTS, 'utf8')), { writeResults: false })
console.log(`rewrote BENCHMARKS.md and ${n} charts from ${RESULTS}`)
