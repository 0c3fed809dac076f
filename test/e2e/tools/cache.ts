import { existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs'
import { homedir } from 'node:os'
import path from 'node:path'
import lockfile from 'proper-lockfile'

/**
 * Where the end-to-end tests keep the tools they install (virtual environments, Go binaries): the
 * user's cache directory (`EDGEDNS_TOOL_CACHE`, else `$XDG_CACHE_HOME/edgedns`, else
 * `~/.cache/edgedns`), outside the checkout, so that a fresh clone reuses what an earlier one
 * installed. Each tool sits in a directory named by its pinned versions, so a new pin installs anew.
 */
const CACHE =
  process.env.EDGEDNS_TOOL_CACHE ||
  path.join(process.env.XDG_CACHE_HOME || path.join(homedir(), '.cache'), 'edgedns')

/** Checkouts share the cache: a second one waits this long at most for the first one's install. */
const WAIT_FOR_INSTALL_MS = 10 * 60_000

/**
 * The cache directory `name`, filled by `fill` on the first call and reused afterwards. A completion
 * mark is written last, so a half-made directory (an interrupted install) is made again; a lock
 * beside the directory keeps two test runs from filling it at once (the second waits, then reuses).
 */
export async function ensureCached(
  name: string,
  fill: (dir: string) => Promise<void>
): Promise<string> {
  const dir = path.join(CACHE, name)
  const mark = path.join(dir, '.complete')
  if (existsSync(mark)) return dir
  mkdirSync(CACHE, { recursive: true })
  const release = await lockfile.lock(dir, {
    realpath: false,
    retries: { retries: WAIT_FOR_INSTALL_MS / 1000, factor: 1, minTimeout: 1000, maxTimeout: 1000 },
  })
  try {
    if (existsSync(mark)) return dir
    rmSync(dir, { recursive: true, force: true })
    mkdirSync(dir, { recursive: true })
    await fill(dir)
    writeFileSync(mark, `${name}\n`)
    return dir
  } finally {
    await release()
  }
}
