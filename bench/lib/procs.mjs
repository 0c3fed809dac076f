/**
 * @module Process memory on Linux: finds the workerd processes Miniflare started (descendants of
 * this Node process) and samples their resident set size from /proc. workerd exposes no
 * per-isolate figure locally, so process RSS is reported as an upper bound on the isolate.
 */
import { readdirSync, readFileSync } from 'node:fs'

function parentOf(pid) {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
    // Field 4 (ppid) comes after the command name in parentheses, which may contain spaces.
    return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1])
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
