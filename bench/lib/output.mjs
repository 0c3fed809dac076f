/** @module Writes a run's outputs: raw results, BENCHMARKS.md and the SVG charts beside it. */
import { mkdirSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { ROOT } from '../../scripts/lib/stack.mjs'
import { renderReport } from '../report.mjs'

export const RESULTS = path.join(ROOT, 'bench/results/latest.json')

/** Returns the number of charts written. */
export function writeOutputs(results, { writeResults = true } = {}) {
  const chartsDir = path.join(ROOT, 'bench/charts')
  mkdirSync(path.dirname(RESULTS), { recursive: true })
  mkdirSync(chartsDir, { recursive: true })
  if (writeResults) writeFileSync(RESULTS, JSON.stringify(results, null, 1))
  const { markdown, charts } = renderReport(results)
  for (const [file, svg] of Object.entries(charts)) writeFileSync(path.join(chartsDir, file), svg)
  writeFileSync(path.join(ROOT, 'BENCHMARKS.md'), markdown)
  return Object.keys(charts).length
}
