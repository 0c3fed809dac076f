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
        // The DoH test project's worker entry (`main` of its vitest project).
        'test/doh/worker-entry.ts',
      ],
      project: ['bench/**/*.mjs', 'scripts/**/*.{mjs,ts}', 'test/**/*.ts', '*.ts'],
    },
    'packages/*': {},
    'workers/*': {},
  },
}

export default config
