/**
 * @module The DNSSEC key-encryption secret of a deployment. Both workers need the same value: the
 * API seals zones' private keys with it, the DoH worker opens them. The first deploy generates it
 * (random, URL-safe base64) into a git-ignored file beside the configs, readable by its owner only,
 * and asks for a backup; every deploy puts it, through wrangler's stdin, on each worker that lacks
 * it. A worker that holds it already keeps its value: a different value would make every sealed
 * key unreadable. The value is never printed and never on a command line.
 */
import { randomBytes } from 'node:crypto'
import { readFileSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { DeployError } from './deploy-config.mjs'

export const DNSSEC_SECRET = 'DNSSEC_KEY_ENCRYPTION_KEY'
/** The file that keeps the value, relative to the repository root (listed in .gitignore). */
export const SECRET_FILE = '.dnssec-key-encryption-key'
/** Shortest value the API and the DoH worker accept (`MIN_SECRET_LENGTH` of @edgedns/dnssec). */
const MIN_LENGTH = 16

/** A new value: 256 random bits, URL-safe base64 (the workers derive their AES key from its text). */
const newSecret = () => randomBytes(32).toString('base64url')

/** The kept value, or null when the file does not exist. */
function readSecretFile(root) {
  let text
  try {
    text = readFileSync(path.join(root, SECRET_FILE), 'utf8')
  } catch (e) {
    if (e.code === 'ENOENT') return null
    throw e
  }
  const value = text.trim()
  if (value.length < MIN_LENGTH || /\s/.test(value))
    throw new DeployError(
      `${SECRET_FILE} must hold one line, the ${DNSSEC_SECRET} value (at least ${MIN_LENGTH} characters without spaces); restore it from your backup`
    )
  return value
}

/** The secret names a worker holds (`wrangler secret list`: names only, never values). */
function secretNames(run, config) {
  const out = run(['secret', 'list', '--format', 'json', '-c', config])
  try {
    return JSON.parse(out.slice(out.indexOf('['))).map((s) => s.name)
  } catch {
    throw new DeployError(
      `wrangler secret list -c ${config}: wrangler did not answer JSON:\n${out}`
    )
  }
}

/**
 * Makes every worker in `workers` (`{ name, config }`, deployed already) hold the secret, the same
 * value on each. Returns `{ created, put }`: whether the value was generated now, and the workers
 * it was put on.
 */
export function ensureDnssecSecret({ run, root, workers, log = () => {} }) {
  const held = workers.map((w) => ({
    ...w,
    has: secretNames(run, w.config).includes(DNSSEC_SECRET),
  }))
  let value = readSecretFile(root)
  let created = false
  if (value === null) {
    const holders = held.filter((w) => w.has)
    if (holders.length > 0)
      throw new DeployError(
        `${DNSSEC_SECRET} is set on ${holders.map((w) => w.name).join(' and ')}, but ${SECRET_FILE} is missing here, so this deploy does not know its value and leaves it alone (a new value would make every zone's sealed DNSSEC keys unreadable). Restore ${SECRET_FILE} from your backup (one line, the value; \`chmod 600\`) and run \`pnpm run deploy\` again: it puts the same value on any worker that lacks it. The workers' code is deployed.`
      )
    value = newSecret()
    writeFileSync(path.join(root, SECRET_FILE), `${value}\n`, { mode: 0o600, flag: 'wx' })
    created = true
    log(
      `${DNSSEC_SECRET}: generated into ${SECRET_FILE} (git-ignored, readable by you only). BACK IT UP now, in a password manager or secret store: every later deploy reads it from there, and DNSSEC keys sealed with it cannot be opened without it.`
    )
  }
  const put = []
  for (const w of held) {
    if (w.has) continue
    run(['secret', 'put', DNSSEC_SECRET, '-c', w.config], { input: value })
    put.push(w.name)
  }
  const kept = held.filter((w) => w.has).map((w) => w.name)
  log(
    `${DNSSEC_SECRET}: ${[
      put.length > 0 ? `put on ${put.join(' and ')}` : '',
      kept.length > 0 ? `already on ${kept.join(' and ')} (kept)` : '',
    ]
      .filter(Boolean)
      .join('; ')}`
  )
  return { created, put }
}
