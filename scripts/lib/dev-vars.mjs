/**
 * @module The root `.dev.vars` (what `wrangler dev` adds to the worker's environment locally),
 * parsed, so the test suite and the benchmarks run the workers with the same local settings.
 */
import { readFileSync } from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'

const FILE = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../.dev.vars')

/** KEY=VALUE lines of `.dev.vars` (comments and blank lines skipped). */
export function devVars() {
  const vars = {}
  for (const line of readFileSync(FILE, 'utf8').split('\n')) {
    const m = /^\s*([A-Z0-9_]+)\s*=\s*(.*?)\s*$/.exec(line)
    if (m && !line.trimStart().startsWith('#')) vars[m[1]] = m[2].replace(/^"(.*)"$/, '$1')
  }
  return vars
}

/** The settings of `devVars()` named in `keys` that `.dev.vars` sets. */
function pick(keys) {
  const vars = devVars()
  return Object.fromEntries(keys.filter((k) => vars[k] !== undefined).map((k) => [k, vars[k]]))
}

/** The DoH read path's local settings (a subset of `devVars()`). */
export function localDohSettings() {
  return pick([
    'REVALIDATE_MS',
    'REFRESH_AHEAD_MS',
    'BUCKET_MAX_AGE_MS',
    'FEED_REPLICAS',
    'FEED_WATCH_MS',
  ])
}

/** The builder's local settings for the API worker (a subset of `devVars()`). */
export function localBuilderSettings() {
  return pick([
    'BUILDER_YIELD_AFTER_HEAD_MS',
    'BUILDER_YIELD_AFTER_NOTIFY_MS',
    'BUILDER_RETIRE_GRACE_MS',
  ])
}

/** The zone-change feed's local settings for the API worker (a subset of `devVars()`). */
export function localFeedSettings() {
  return pick(['FEED_REPLICA_MAX_AGE_MS'])
}

/** The zone lifecycle's local settings for the API worker: new zones served at once (a subset of `devVars()`). */
export function localZoneSettings() {
  return pick(['ZONE_VERIFICATION'])
}
