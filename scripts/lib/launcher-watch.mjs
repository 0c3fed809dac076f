/**
 * @module Notices when whatever launched this process is gone. `pnpm dev` runs this script under a
 * chain of wrappers (pnpm → sh → node shim → node); a SIGTERM sent to pnpm ends pnpm and the first
 * shell but reaches no further, so the script would keep the stack running without its launcher.
 * It therefore watches that chain, up to the package manager, and its own parent.
 */
import { execFileSync } from 'node:child_process'

const alive = (pid) => {
  try {
    process.kill(pid, 0)
    return true
  } catch (e) {
    return e.code === 'EPERM'
  }
}

/** Parent pid and command line of `pid` (ps works the same on Linux and macOS). */
function parentOf(pid) {
  try {
    const line = execFileSync('ps', ['-o', 'ppid=,args=', '-p', String(pid)], {
      encoding: 'utf8',
    }).trim()
    const m = /^(\d+)\s+(.*)$/.exec(line)
    return m ? { pid: Number(m[1]), args: m[2] } : null
  } catch {
    return null
  }
}

/**
 * Ancestors from the parent up to the package manager that ran the script (pnpm, npm), when the
 * script runs as a package script; else the parent alone.
 */
function launcherChain() {
  if (!process.env.npm_lifecycle_event) return [process.ppid]
  const chain = []
  for (let pid = process.pid, i = 0; i < 8; i++) {
    const parent = parentOf(pid)
    if (!parent || parent.pid <= 1) break
    chain.push(parent.pid)
    const up = parentOf(parent.pid)
    if (up && /\b(pnpm|npm)(\.c?js)?\b/.test(up.args)) {
      chain.push(up.pid)
      return chain
    }
    pid = parent.pid
  }
  return [process.ppid]
}

/** Calls `onGone(pid)` once, when a launcher has exited (checked every `intervalMs`). */
export function watchLaunchers(onGone, intervalMs = 500) {
  const chain = launcherChain()
  const ppid = process.ppid
  const timer = setInterval(() => {
    const gone = process.ppid !== ppid ? ppid : chain.find((pid) => !alive(pid))
    if (gone === undefined) return
    clearInterval(timer)
    onGone(gone)
  }, intervalMs)
  timer.unref()
  return () => clearInterval(timer)
}
