import { cloudflareTest, readD1Migrations } from '@cloudflare/vitest-plugin'
import { fileURLToPath } from 'node:url'
import { configDefaults, defineConfig } from 'vitest/config'
import {
  localBuilderSettings,
  localDohSettings,
  localFeedSettings,
  localZoneSettings,
} from './scripts/lib/dev-vars.mjs'
import { longFirstSequencer } from './test/setup/long-first-sequencer.ts'

/** Seals DNSSEC private keys in the workerd test projects (a Worker secret in production). */
const TEST_DNSSEC_SECRET = 'test-dnssec-key-encryption-secret'

/**
 * The time limit of a test (and hook) in the projects whose files run side by side: a test shares
 * the cores with other files' work, so it may take several times what it takes alone.
 */
const SHARED_CORES_TIMEOUT_MS = 20_000
const sharedCoresTimeouts = {
  testTimeout: SHARED_CORES_TIMEOUT_MS,
  hookTimeout: SHARED_CORES_TIMEOUT_MS,
}

/**
 * The API project: one workerd runtime per worker runs file after file (`isolate: false`), so the
 * API's modules are loaded once per worker rather than once per file
 * (docs/decisions/test-runtime-sharing.md). `test/setup/fresh-storage.ts` empties D1, KV and the
 * Durable Objects before each file; the API's module state (caches keyed by zone and version)
 * carries over, as it does between requests in production. The DoH and shards projects keep a
 * runtime per file (the DoH files count what a cold isolate reads; both are few), and so do the
 * files of API_FILES_ALONE.
 */
const filesShareRuntime = { isolate: false, ...sharedCoresTimeouts }

/** The API worker's test files (project `api`, which shares runtimes, and `api-alone`). */
const API_FILES = [
  'workers/api/src/**/*.test.ts',
  'packages/strict-bindings/src/**/*.test.ts',
  'test/api/**/*.test.ts',
]
/**
 * API files kept in a runtime of their own (project `api-alone`): the scale files, whose work (and
 * memory) would be the next file's start, and the one that holds a transfer to a time bound.
 */
const API_FILES_ALONE = [
  'workers/api/src/builder/test/random.test.ts',
  'test/api/batch-scale.test.ts',
  'test/api/zones-at-scale.test.ts',
  'test/api/export-at-scale.test.ts',
  'test/api/import-export-scale.test.ts',
  'workers/api/src/transfers/tcp-transfer.test.ts',
]

/** Test files that run alone, not beside other files (project scripts-solo). */
const SOLO_FILES = ['scripts/lib/dns-front-flood.test.ts']

/** The scripts projects run in node; API modules they import reach `cloudflare:sockets`. */
const scriptsResolve = {
  alias: {
    'cloudflare:sockets': fileURLToPath(
      new URL('./test/setup/cloudflare-sockets-stub.ts', import.meta.url)
    ),
  },
}

export default defineConfig(async () => {
  const migrations = await readD1Migrations('migrations')
  const apiBindings = {
    ...localDohSettings(),
    ...localBuilderSettings(),
    ...localZoneSettings(),
    ...localFeedSettings(),
    TEST_MIGRATIONS: migrations,
    DEV_API_TOKEN: 'dev-token',
    KV_KEY_WRITE_INTERVAL_MS: '0',
    STRICT_LIMITS: '1',
    MAX_BODY_BYTES: String(20 * 1024 * 1024),
    DNSSEC_KEY_ENCRYPTION_KEY: TEST_DNSSEC_SECRET,
  }
  return {
    test: {
      // As many test files at once as there are cores (vitest's default leaves one core idle). Files
      // of a workerd project each get their own workerd process; e2e and scripts-solo run one file
      // at a time.
      maxWorkers: '100%',
      sequence: {
        // The longest files start first, so that the run does not end on one of them alone.
        sequencer: longFirstSequencer(API_FILES_ALONE.slice(0, 4)),
      },
      projects: [
        {
          // Pure libraries with no module state between files: one worker runs many files.
          test: {
            name: 'packages',
            include: ['packages/*/src/**/*.test.ts'],
            // The strict-bindings harness wraps real D1 and KV bindings: its tests run in workerd.
            exclude: [...configDefaults.exclude, 'packages/strict-bindings/**'],
            environment: 'node',
            isolate: false,
            ...sharedCoresTimeouts,
          },
        },
        {
          // API modules imported for their schemas (the OpenAPI document) reach `cloudflare:sockets`.
          resolve: scriptsResolve,
          test: {
            name: 'scripts',
            include: ['scripts/**/*.test.ts'],
            exclude: [...configDefaults.exclude, ...SOLO_FILES],
            environment: 'node',
            ...sharedCoresTimeouts,
          },
        },
        {
          // Script tests that need the cores to themselves: the DNS front's flood test holds its
          // client to a one-second answer while two processes flood and serve as fast as they can.
          // They run one at a time with the end-to-end files, after the files that share the cores.
          resolve: scriptsResolve,
          test: {
            name: 'scripts-solo',
            include: SOLO_FILES,
            environment: 'node',
            maxWorkers: 1,
            sequence: { groupOrder: 1 },
          },
        },
        {
          // The SDK's package exports point at its build (dist/); tests use its sources.
          resolve: {
            alias: [
              {
                find: /^@edgedns\/sdk$/,
                replacement: fileURLToPath(new URL('./packages/sdk/src/index.ts', import.meta.url)),
              },
            ],
          },
          test: {
            name: 'e2e',
            include: ['test/e2e/**/*.test.ts'],
            environment: 'node',
            globalSetup: ['./test/e2e/global-setup.ts'],
            // One file at a time against the one local stack, after the files that share the cores.
            maxWorkers: 1,
            sequence: { groupOrder: 1 },
            testTimeout: 60_000,
            hookTimeout: 180_000,
          },
        },
        // The API files: most share a runtime per worker, those of API_FILES_ALONE have one each.
        ...(['api', 'api-alone'] as const).map((name) => ({
          plugins: [
            cloudflareTest({
              wrangler: { configPath: './wrangler.toml' },
              miniflare: { bindings: apiBindings },
            }),
          ],
          test: {
            name,
            ...(name === 'api'
              ? {
                  include: API_FILES,
                  exclude: [...configDefaults.exclude, '**/*.shards.test.ts', ...API_FILES_ALONE],
                  ...filesShareRuntime,
                }
              : { include: API_FILES_ALONE, ...sharedCoresTimeouts }),
            setupFiles: ['./test/setup/fresh-storage.ts', './test/setup/fail-on-limit-breach.ts'],
          },
        })),
        {
          // The API worker over three D1 shards (DB = shard 0 with the directory, DB_1, DB_2).
          plugins: [
            cloudflareTest({
              wrangler: { configPath: './wrangler.toml' },
              miniflare: {
                // Small move steps: a test's account moves in many steps, with writes between them.
                bindings: { ...apiBindings, SHARD_MOVE_STEP_QUERIES: '20' },
                d1Databases: { DB: 'shard-0', DB_1: 'shard-1', DB_2: 'shard-2' },
              },
            }),
          ],
          test: {
            name: 'shards',
            include: ['workers/api/src/**/*.shards.test.ts'],
            setupFiles: ['./test/setup/fresh-storage.ts', './test/setup/fail-on-limit-breach.ts'],
            ...sharedCoresTimeouts,
          },
        },
        {
          plugins: [
            cloudflareTest({
              wrangler: { configPath: './workers/doh/wrangler.jsonc' },
              // The feed's objects (in the API worker when deployed) served by the test worker itself.
              main: './test/doh/worker-entry.ts',
              miniflare: {
                durableObjects: {
                  ZONE_FEED: { className: 'ZoneFeed', useSQLite: true },
                  ZONE_FEED_REPLICA: { className: 'ZoneFeedReplica', useSQLite: true },
                },
                bindings: {
                  ...localDohSettings(),
                  ...localFeedSettings(),
                  STRICT_LIMITS: '1',
                  DNSSEC_KEY_ENCRYPTION_KEY: TEST_DNSSEC_SECRET,
                },
              },
            }),
          ],
          test: {
            name: 'doh',
            include: ['workers/doh/src/**/*.test.ts', 'test/doh/**/*.test.ts'],
            setupFiles: ['./test/setup/fail-on-limit-breach.ts'],
            ...sharedCoresTimeouts,
          },
        },
      ],
    },
  }
})
