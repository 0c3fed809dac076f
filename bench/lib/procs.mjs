/**
 * @module Processes on Linux, from /proc: finds the workerd processes Miniflare started
 * (descendants of this Node process), samples their resident set size, and reads the CPU time of
 * processes (workerd, named, this one). workerd exposes no per-isolate figure locally, so process
 * RSS is reported as an upper bound on the isolate.
 */
import { execFileSync } from 'node:child_process'
import { readdirSync, readFileSync } from 'node:fs'

/**
 * The fields of stat(5) from field 3 (state) on: they come after the command name in parentheses,
 * which may contain spaces. Throws when the process is gone.
 */
function statFields(pid) {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
  return stat.slice(stat.lastIndexOf(')') + 2).split(' ')
}

function parentOf(pid) {
  try {
    return Number(statFields(pid)[1])
  } catch {
    return null
  }
}

const commOf = (pid) => {
  try {
    return readFileSync(`/proc/${pid}/comm`, 'utf8').trim()
  } catch {
    return null
  }
}

/** PIDs of workerd processes descending from `root` (default: this process). */
export function workerdPids(root = process.pid) {
  const pids = readdirSync('/proc')
    .filter((d) => /^\d+$/.test(d))
    .map(Number)
  const parent = new Map(pids.map((p) => [p, parentOf(p)]))
  const descends = (p) => {
    for (let cur = parent.get(p), hops = 0; cur && hops < 10; cur = parent.get(cur), hops++)
      if (cur === root) return true
    return false
  }
  return pids.filter((p) => commOf(p) === 'workerd' && descends(p))
}

/** Resident set size in bytes (VmRSS), or null when the process is gone. */
export function rssOf(pid) {
  try {
    const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))
    return m ? Number(m[1]) * 1024 : null
  } catch {
    return null
  }
}

/** Samples a process's RSS every `everyMs` until stop(); returns before/peak/after in bytes. */
export function sampleRss(pid, everyMs = 25) {
  const before = rssOf(pid)
  let peak = before ?? 0
  const timer = setInterval(() => {
    const v = rssOf(pid)
    if (v !== null && v > peak) peak = v
  }, everyMs)
  return {
    stop() {
      clearInterval(timer)
      const after = rssOf(pid)
      return { before, peak: Math.max(peak, after ?? 0), after }
    },
  }
}

/** CPU milliseconds (user + system) process `pid` has used so far, all its threads. */
export function cpuMsOf(pid) {
  const fields = statFields(pid)
  // utime and stime are fields 14 and 15 of stat(5), in clock ticks (100 a second).
  return (Number(fields[11]) + Number(fields[12])) * 10
}

/** CPU milliseconds the runtime (`pids`: this process's workerd processes) has used so far. */
export function runtimeCpuMs(pids = workerdPids()) {
  return pids.reduce((t, p) => t + cpuMsOf(p), 0)
}

/**
 * CPU milliseconds used while `fn` runs: by the runtime (this process's workerd processes), by
 * this process itself (`own`), and by `other` processes: `fn` gets `watch(pid)`, which counts a
 * process (e.g. named) from the moment it is called. Resolves with `fn`'s result and the times.
 */
export async function cpuDuring(fn) {
  const runtime = workerdPids()
  const r0 = runtimeCpuMs(runtime)
  const u0 = process.cpuUsage()
  const o0 = new Map()
  const result = await fn((pid) => o0.set(pid, cpuMsOf(pid)))
  const own = process.cpuUsage(u0)
  let other = 0
  for (const [pid, before] of o0) other += cpuMsOf(pid) - before
  return {
    result,
    cpu: { runtime: runtimeCpuMs(runtime) - r0, own: (own.user + own.system) / 1000, other },
  }
}

/**
 * Waits until processes `pids` (all their threads) together use less than `share` of one core over
 * `windowMs`, checking every `windowMs`, for at most `timeoutMs` (then resolves anyway); a process
 * that is gone counts as idle. Resolves with the milliseconds waited.
 */
export async function waitIdle(pids, { share = 0.05, windowMs = 250, timeoutMs = 60_000 } = {}) {
  const cpu = () =>
    pids.reduce((t, p) => {
      try {
        return t + cpuMsOf(p)
      } catch {
        return t
      }
    }, 0)
  const t0 = performance.now()
  let before = cpu()
  while (performance.now() - t0 < timeoutMs) {
    await new Promise((r) => setTimeout(r, windowMs))
    const now = cpu()
    if (now - before < share * windowMs) break
    before = now
  }
  return performance.now() - t0
}

/** Sets the cores (a taskset list, e.g. "1" or "0-1") of processes `pids`, all their threads. */
export function pinTo(pids, cpus) {
  for (const pid of pids) execFileSync('taskset', ['-a', '-p', '-c', cpus, String(pid)])
}
