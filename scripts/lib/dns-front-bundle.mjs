/**
 * @module The DNS front as one file: scripts/dns-front.mjs and everything it imports (the front's
 * modules, the wire codecs from packages/, lru-cache) bundled by esbuild into a single ES module
 * that runs on Node.js with no node_modules. The systemd unit and the container run this file.
 */
import path from 'node:path'
import { build } from 'esbuild'
import { ROOT } from './stack.mjs'

/** The bundle's default place: dist/dns-front/dns-front.mjs. */
export const BUNDLE = path.join(ROOT, 'dist', 'dns-front', 'dns-front.mjs')

/** Writes the bundle to `outfile`. */
export async function bundleDnsFront(outfile = BUNDLE) {
  await build({
    entryPoints: [path.join(ROOT, 'scripts', 'dns-front.mjs')],
    outfile,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    legalComments: 'inline',
    logLevel: 'warning',
  })
  return outfile
}
