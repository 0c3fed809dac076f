/**
 * Waiting in the e2e tests: for a condition to hold, and for a server process the test started
 * to exit.
 */
import type { ChildProcess } from 'node:child_process'

/** Whether `check` holds within `ms`, asked every `everyMs` (and once more at the end). */
export async function waitFor(
  check: () => boolean | Promise<boolean>,
  ms: number,
  everyMs = 150
): Promise<boolean> {
  for (const end = Date.now() + ms; Date.now() < end;) {
    if (await check()) return true
    await new Promise((r) => setTimeout(r, everyMs))
  }
  return check()
}

/** Stops `child` (SIGTERM) and waits up to five seconds for it to exit; nothing if it has. */
export async function stopChild(child: ChildProcess | undefined): Promise<void> {
  if (!child || child.exitCode !== null || child.signalCode !== null) return
  const exited = new Promise((r) => child.once('exit', r))
  child.kill('SIGTERM')
  await Promise.race([exited, new Promise((r) => setTimeout(r, 5_000))])
}
