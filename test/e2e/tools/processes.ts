/**
 * Waiting in the e2e tests: for a condition to hold, and for a server process the test started
 * to exit; and a test's clean-up.
 */
import type { ChildProcess } from 'node:child_process'
import { rmSync } from 'node:fs'

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

/**
 * Stops `child`: SIGTERM, then SIGKILL if it has not exited five seconds later (so it never
 * outlives the test holding its port); nothing if it has exited.
 */
export async function stopChild(child: ChildProcess | undefined): Promise<void> {
  if (!child || child.exitCode !== null || child.signalCode !== null) return
  const exited = new Promise((r) => child.once('exit', r))
  const within = (ms: number) =>
    Promise.race([exited.then(() => true), new Promise((r) => setTimeout(() => r(false), ms))])
  child.kill('SIGTERM')
  if (await within(5_000)) return
  child.kill('SIGKILL')
  await within(5_000)
}

/** A test's clean-up: its server stopped, its DNS front closed, its directory removed. */
export async function cleanUp(test: {
  child: ChildProcess | undefined
  front: { close(): void } | undefined
  dir: string
}): Promise<void> {
  await stopChild(test.child)
  test.front?.close()
  if (test.dir) rmSync(test.dir, { recursive: true, force: true, maxRetries: 5, retryDelay: 100 })
}
