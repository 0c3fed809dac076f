/**
 * `pnpm build:dns-front`: bundles the DNS front into dist/dns-front/dns-front.mjs, the one file
 * deploy/dns-front/ installs (systemd unit) or copies into its container image.
 */
import path from 'node:path'
import { bundleDnsFront } from './lib/dns-front-bundle.mjs'
import { ROOT } from './lib/stack.mjs'

const out = await bundleDnsFront()
console.log(`dns-front bundle: ${path.relative(ROOT, out)}`)
