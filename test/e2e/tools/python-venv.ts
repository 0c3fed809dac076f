/**
 * Python tools for the end-to-end tests: a virtual environment per set of pinned PyPI packages,
 * made once in the tool cache (./cache.ts) and reused as it is by later runs and other checkouts.
 */
import { execFile, spawnSync } from 'node:child_process'
import path from 'node:path'
import { promisify } from 'node:util'
import { ensureCached } from './cache.ts'

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
 * specifiers) for the installed python3's version, installed from PyPI on the first call and reused
 * afterwards (see ensureCached).
 */
export async function ensureVenv(name: string, packages: string[]): Promise<string> {
  const python = spawnSync('python3', ['-c', 'import sys; print("%d.%d" % sys.version_info[:2])'], {
    encoding: 'utf8',
  }).stdout.trim()
  const key = `${name}-py${python}-${packages.join('-').replace(/[^a-z0-9.-]/gi, '_')}`
  const venv = await ensureCached(key, async (dir) => {
    await run('python3', ['-m', 'venv', dir])
    await run(
      path.join(dir, 'bin', 'pip'),
      ['install', '--quiet', '--disable-pip-version-check', ...packages],
      { timeout: 240_000 }
    )
  })
  return path.join(venv, 'bin')
}
