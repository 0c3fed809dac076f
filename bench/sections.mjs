/** @module The benchmark sections, in the order they run. */
import { runBatchBench } from './batch.mjs'

export const SECTIONS = [
  { id: 'batch', title: 'Batch API vs one call per record', run: runBatchBench },
]
