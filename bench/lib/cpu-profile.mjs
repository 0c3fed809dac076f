/**
 * @module Reading a V8 CPU profile (`Profiler.stop`'s result, from Node's inspector or workerd's).
 */

/** Prints the `top` functions with the most self time, as a share of all samples. */
export function printSelfTimes(profile, top = 30) {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]))
  const self = new Map()
  for (const id of profile.samples) {
    const { functionName, url, lineNumber } = byId.get(id).callFrame
    const key = `${functionName || '(anonymous)'} ${url.split('/').slice(-2).join('/')}:${lineNumber + 1}`
    self.set(key, (self.get(key) ?? 0) + 1)
  }
  const all = profile.samples.length
  for (const [k, n] of [...self].sort((a, b) => b[1] - a[1]).slice(0, top))
    console.log(`${((100 * n) / all).toFixed(1).padStart(5)} %  ${k}`)
}
