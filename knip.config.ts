/**
 * knip: no unused files, exports or dependencies (`pnpm unused`, part of `pnpm test`). Entries are
 * what runs: the workers' entries (from their wrangler configs), package exports, scripts named in
 * package.json, the vitest projects and the tools below that are run by hand with `node`.
 */
import type { KnipConfig } from 'knip'

const config: KnipConfig = {
  workspaces: {
    '.': {
      entry: [
        // Benchmark sections, report renderers and one-off profilers: each is run as `node <file>`.
        'bench/*.mjs',
        'bench/tools/*.mjs',
        // The load generator, started as a second process by bench/lib/load.mjs.
        'bench/lib/load-child.mjs',
        // The UDP flood, started as a second process by the DNS front's flood test.
        'scripts/lib/udp-flood.mjs',
        // The DoH test project's worker entry (`main` of its vitest project).
        'test/doh/worker-entry.ts',
      ],
      project: ['bench/**/*.mjs', 'scripts/**/*.{mjs,ts}', 'test/**/*.ts', '*.ts'],
      ignoreDependencies: [
        // dependency-cruiser's parser for TypeScript (loaded by name, see .dependency-cruiser.cjs).
        '@swc/core',
      ],
    },
    'packages/*': {},
    'workers/*': {},
    'workers/dashboard': {
      // public/app.js is the bundle build.mjs writes from src/ (served as a static asset).
      ignore: ['public/app.js'],
    },
  },
  ignoreBinaries: [
    // System tools the end-to-end tests and benchmark peers run (Debian packages .ci/run installs).
    'dig',
    'named',
    'named-checkconf',
    'named-checkzone',
    'nsupdate',
    'openssl',
    'sqlite3',
    // util-linux: the transfers benchmark gives each side of a load a core of its own.
    'taskset',
  ],
}

export default config
