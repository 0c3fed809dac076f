/**
 * The dependency rules of ARCHITECTURE.md ("Dependencies"), checked by `pnpm test` (`pnpm deps`).
 * The layer lists below are the one place the orders are written down; ARCHITECTURE.md explains
 * them. A rule that does not hold fails the suite: change the code, not the rule.
 */

/** Test code: unit tests, test helpers and harnesses beside the code, and the scenario suites. */
const TEST = ['^test/', '\\.test\\.ts$', '/test/', '/test-helpers/', '/test-[^/]+\\.ts$']

/**
 * Packages, lowest first. A package's source imports only packages of lower layers (tests may use
 * any package they need, as devDependencies).
 */
const PACKAGE_LAYERS = [
  ['dns-facts', 'platform-limits'],
  ['dns-wire', 'zonefile', 'zone-feed'],
  ['records', 'kv-layout', 'delegation', 'zone-transfer'],
  ['resolver', 'strict-bindings'],
  ['dnssec'],
  ['sdk'],
]

/**
 * Folders of `workers/api/src`, lowest first; `(root)` is the files directly in `src/` (the entry
 * and the app). Production code in a folder imports only folders of lower layers.
 */
const API_LAYERS = [
  ['db'],
  ['http'],
  ['auth', 'records'],
  ['commit'],
  ['shards'],
  ['zones', 'batch', 'dnssec'],
  ['zonefile-bridge'],
  ['transfers'],
  ['builder', 'feed'],
  ['routes', 'cron'],
  ['openapi'],
  ['(root)'],
]

/** One rule per layer: what it may not import (its own layer and every layer above). */
function layerRules(layers, fromPath, toPath, name) {
  return layers.slice(0, -1).flatMap((layer, i) =>
    layer.map((unit) => {
      const forbidden = layers
        .slice(i)
        .flat()
        .filter((u) => u !== unit)
      return {
        name,
        comment: `${unit} is in layer ${i + 1}; it may import only layers below it`,
        severity: 'error',
        from: { path: fromPath(unit), pathNot: TEST },
        to: { path: forbidden.map(toPath) },
      }
    })
  )
}

/** A folder (or package) missing from its layer list fails the check instead of escaping it. */
function listedRule(name, layers, prefix) {
  const listed = layers.flat().filter((u) => u !== '(root)')
  return {
    name,
    comment: `every ${prefix}* folder is in a layer of .dependency-cruiser.cjs`,
    severity: 'error',
    from: {},
    to: { path: `^${prefix}[^/]+/`, pathNot: listed.map((u) => `^${prefix}${u}/`) },
  }
}

const apiFolder = (unit) =>
  unit === '(root)' ? '^workers/api/src/[^/]+$' : `^workers/api/src/${unit}/`

module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      comment: 'No import cycle between files (type-only imports included).',
      severity: 'error',
      from: {},
      to: { circular: true },
    },
    {
      name: 'not-to-unresolvable',
      comment: 'Every import resolves to a file or an installed package.',
      severity: 'error',
      // The CLI's launcher imports the SDK's build output, which exists only after `build`.
      from: { pathNot: '^packages/sdk/bin/' },
      to: { couldNotResolve: true },
    },
    {
      name: 'workers-stay-apart',
      comment:
        "A worker never imports another worker's files; shared code lives in a package. The one " +
        'sanctioned edge is the API embedding the DoH handler (its package entry).',
      severity: 'error',
      from: { path: '^workers/([^/]+)/' },
      to: { path: '^workers/', pathNot: ['^workers/$1/', '^workers/doh/src/index\\.ts$'] },
    },
    {
      name: 'doh-entry-by-package-name',
      comment: 'The DoH handler is embedded through `@edgedns/doh-worker`, never by relative path.',
      severity: 'error',
      from: { path: '^workers/', pathNot: '^workers/doh/' },
      to: { path: '^workers/doh/', dependencyTypes: ['local'] },
    },
    {
      name: 'packages-never-import-workers',
      severity: 'error',
      from: { path: '^packages/' },
      to: { path: '^workers/' },
    },
    {
      name: 'packages-without-workers-runtime',
      comment: 'Package code runs anywhere: no `cloudflare:` runtime modules (tests may use them).',
      severity: 'error',
      from: { path: '^packages/', pathNot: TEST },
      to: { path: '^cloudflare:' },
    },
    {
      name: 'production-never-imports-tests',
      comment: 'Test helpers and harnesses never reach production code (or its bundle).',
      severity: 'error',
      from: { path: '^(packages|workers)/', pathNot: TEST },
      to: { path: TEST },
    },
    ...layerRules(
      PACKAGE_LAYERS,
      (unit) => `^packages/${unit}/`,
      (unit) => `^packages/${unit}/`,
      'package-layers'
    ),
    ...layerRules(API_LAYERS, apiFolder, apiFolder, 'api-folder-layers'),
    listedRule('package-has-a-layer', PACKAGE_LAYERS, 'packages/'),
    listedRule('api-folder-has-a-layer', API_LAYERS, 'workers/api/src/'),
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '(^|/)(node_modules|dist)/|^workers/dashboard/public/' },
    // TypeScript 7 has no JavaScript API for dependency-cruiser to parse with; swc parses the sources.
    parser: 'swc',
    tsConfig: { fileName: 'tsconfig.json' },
    builtInModules: { add: ['cloudflare:test', 'cloudflare:workers', 'cloudflare:sockets'] },
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['@edgedns/source', 'import', 'node', 'default'],
      extensions: ['.ts', '.mjs', '.js', '.cjs', '.json'],
      mainFields: ['module', 'main', 'types'],
    },
  },
}
