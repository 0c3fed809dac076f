/**
 * Python tools for the end-to-end tests: a virtual environment per set of pinned PyPI packages,
 * made once and cached under node_modules/.cache (a later run reuses it as it is).
 */
import { execFile, spawnSync } from 'node:child_process'
import { existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { promisify } from 'node:util'
import { CACHE } from './cache.ts'

const run = promisify(execFile)

/** Why a virtual environment cannot be made here, or null when python3 with venv and pip is available. */
export function missingPython(): string | null {
  const probe = spawnSync('python3', ['-c', 'import venv, ensurepip'], { encoding: 'utf8' })
  if (probe.error) return 'python3 is not installed (Debian: apt-get install python3 python3-venv)'
  if (probe.status !== 0)
    return 'python3 has no working venv/ensurepip module (Debian: apt-get install python3-venv)'
  return null
}

/**
 * The `bin` directory of a virtual environment holding exactly `packages` (pinned `name==version`
 * specifiers), installed from PyPI on the first call and reused afterwards. A half-made environment
 * (an interrupted install) has no completion mark and is made again.
 */
export async function ensureVenv(name: string, packages: string[]): Promise<string> {
  const venv = path.join(CACHE, `${name}-${packages.join('-').replace(/[^a-z0-9.-]/gi, '_')}`)
  const bin = path.join(venv, 'bin')
  if (existsSync(path.join(venv, '.complete'))) return bin
  rmSync(venv, { recursive: true, force: true })
  mkdirSync(CACHE, { recursive: true })
  await run('python3', ['-m', 'venv', venv])
  await run(
    path.join(bin, 'pip'),
    ['install', '--quiet', '--disable-pip-version-check', ...packages],
    { timeout: 240_000 }
  )
  writeFileSync(path.join(venv, '.complete'), packages.join('\n'))
  return bin
}
