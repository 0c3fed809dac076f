/**
 * @module Peer server processes: spawn one in the foreground with its output captured, wait for
 * a condition, stop it by its own PID (SIGTERM, then SIGKILL), and find free loopback ports.
 */
import { spawn, execFileSync } from 'node:child_process'

/** A free TCP port on 127.0.0.1 (the same number is then used for UDP by the DNS servers). */
export { freePort } from '../../scripts/lib/stack.mjs'

export function have(cmd) {
  try {
    execFileSync('sh', ['-c', `command -v ${cmd}`], { stdio: 'ignore' })
    return true
  } catch {
    return false
  }
}

/** Starts `cmd args` and returns { child, output(), stop() }. */
export function startProcess(cmd, args, { cwd } = {}) {
  const child = spawn(cmd, args, { cwd, stdio: ['ignore', 'pipe', 'pipe'] })
  let out = ''
  child.stdout.on('data', (d) => (out = (out + d).slice(-20_000)))
  child.stderr.on('data', (d) => (out = (out + d).slice(-20_000)))
  let exited = false
  const gone = new Promise((r) =>
    child.on('exit', () => {
      exited = true
      r()
    })
  )
  return {
    child,
    output: () => out,
    exited: () => exited,
    async stop() {
      if (exited) return
      child.kill('SIGTERM')
      const timer = setTimeout(() => child.kill('SIGKILL'), 5000)
      await gone
      clearTimeout(timer)
    },
  }
}

export const sleep = (ms) => new Promise((r) => setTimeout(r, ms))
