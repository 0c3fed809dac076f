/**
 * @module workerd's V8 inspector from the bench (Miniflare's `inspectorPort`): a small Chrome
 * DevTools Protocol client on one worker's isolate, a poller of its used JS heap, and the CPU time
 * of a CPU profile.
 */

/**
 * A CDP session on the isolate of `worker` (its name in the stack, e.g. `edgedns-api`, or a
 * Miniflare service's, e.g. `d1:db`): the target whose title ends with the name, else the first
 * that mentions it.
 */
export async function inspectWorker(port, worker) {
  const targets = await (await fetch(`http://127.0.0.1:${port}/json`)).json()
  const target =
    targets.find((t) => t.title?.endsWith(` ${worker}`)) ??
    targets.find((t) => t.title?.includes(worker) || t.url?.includes(worker))
  if (!target)
    throw new Error(
      `no inspector target ${worker} in ${JSON.stringify(targets.map((t) => t.title))}`
    )
  return connect(target.webSocketDebuggerUrl)
}

async function connect(url) {
  const ws = new WebSocket(url)
  await new Promise((resolve, reject) => {
    ws.onopen = resolve
    ws.onerror = reject
  })
  let next = 1
  const pending = new Map()
  const listeners = new Map()
  ws.onmessage = (ev) => {
    const msg = JSON.parse(String(ev.data))
    if (msg.id && pending.has(msg.id)) {
      const { resolve, reject, method } = pending.get(msg.id)
      pending.delete(msg.id)
      if (msg.error) reject(new Error(`${method}: ${msg.error.message}`))
      else resolve(msg.result)
    } else if (msg.method) for (const fn of listeners.get(msg.method) ?? []) fn(msg.params)
  }
  return {
    /** Sends a command; resolves with its result (rejects with the protocol's error). */
    send(method, params = {}) {
      const id = next++
      ws.send(JSON.stringify({ id, method, params }))
      return new Promise((resolve, reject) => pending.set(id, { resolve, reject, method }))
    },
    on(event, fn) {
      listeners.set(event, [...(listeners.get(event) ?? []), fn])
    },
    close: () => ws.close(),
  }
}

/**
 * Polls `Runtime.getHeapUsage` back to back (one request in flight, at most one every `everyMs`)
 * until `stop()`, which returns the used heap before, the peak, and after, in bytes. The isolate
 * answers between its tasks (while the code awaits I/O), not inside one synchronous stretch. The
 * figure includes garbage not yet collected, unless `collect` (async) runs a full collection before
 * each poll (workerd never answers `HeapProfiler.collectGarbage`: evaluate `gc()` in an isolate
 * started with `--expose-gc`, see `isolateContext`).
 */
export function pollHeap(cdp, { everyMs = 2, collect } = {}) {
  let running = true
  let peak = 0
  let samples = 0
  const t0 = performance.now()
  /** [ms since the start, used bytes] of every poll. */
  const series = []
  const once = async () => {
    if (collect) await collect()
    const { usedSize } = await cdp.send('Runtime.getHeapUsage')
    series.push([Math.round(performance.now() - t0), usedSize])
    samples++
    if (usedSize > peak) peak = usedSize
    return usedSize
  }
  const loop = (async () => {
    const before = await once()
    while (running) {
      const t0 = performance.now()
      await once()
      const wait = everyMs - (performance.now() - t0)
      if (wait > 0) await new Promise((r) => setTimeout(r, wait))
    }
    return before
  })()
  return {
    async stop() {
      running = false
      const before = await loop
      const after = await once()
      return { before, peak, after, samples, series }
    },
  }
}

/**
 * `Runtime.evaluate` in the worker's context: workerd has no default context for it, so this names
 * the one the isolate reports once `Runtime.enable` is on (every request and Durable Object of the
 * worker shares it).
 */
export async function isolateContext(cdp) {
  const contexts = []
  cdp.on('Runtime.executionContextCreated', (e) => contexts.push(e.context))
  await cdp.send('Runtime.enable')
  return async (expression) => {
    const context = contexts.at(-1)
    if (!context) throw new Error('the isolate reported no execution context')
    const { result, exceptionDetails } = await cdp.send('Runtime.evaluate', {
      expression,
      uniqueContextId: context.uniqueId,
      returnByValue: true,
    })
    if (exceptionDetails) throw new Error(`${expression}: ${exceptionDetails.text}`)
    return result.value
  }
}

const NOT_JS = new Set(['(idle)', '(program)', '(root)'])

/**
 * CPU time of a V8 CPU profile, in ms, from its samples: `js` = samples in JavaScript (any
 * function), `gc` = samples in the garbage collector; `(idle)`, `(program)` (the runtime outside
 * JavaScript, or another isolate on the thread) are left out. `from`/`to` (µs, the profile's
 * clock) restrict it to a window.
 */
export function cpuOf(profile, from = -Infinity, to = Infinity) {
  const byId = new Map(profile.nodes.map((n) => [n.id, n.callFrame.functionName]))
  let t = profile.startTime
  let js = 0
  let gc = 0
  for (let i = 0; i < profile.samples.length; i++) {
    const dt = profile.timeDeltas[i] ?? 0
    t += dt
    if (t < from || t >= to) continue
    // A sample stands for the interval since the previous one.
    const name = byId.get(profile.samples[i])
    if (name === '(garbage collector)') gc += dt
    else if (!NOT_JS.has(name)) js += dt
  }
  return { jsMs: js / 1000, gcMs: gc / 1000, cpuMs: (js + gc) / 1000 }
}

/** One line of V8's `--trace-gc`: `[pid:0xISOLATE]  T ms: Kind A (B) -> C (D) MB, … reason`. */
const GC_LINE =
  /\[\d+:(0x[0-9a-f]+)\]\s+(\d+) ms: ([A-Za-z -]+?) ([\d.]+) \(([\d.]+)\) -> ([\d.]+) \(([\d.]+)\) MB.*?(?:mu = [\d.]+\) )?(.*)$/

/**
 * Collects V8's `--trace-gc` lines fed to it (the stack's `onRuntimeLog`), per isolate:
 * `{ isolate, ms, kind, before, after, reason }`, sizes in MB as V8 prints them.
 */
export function gcTrace() {
  const events = []
  return {
    events,
    feed({ message }) {
      for (const line of message.split('\n')) {
        const m = GC_LINE.exec(line)
        if (m)
          events.push({
            isolate: m[1],
            ms: Number(m[2]),
            kind: m[3].trim(),
            before: Number(m[4]),
            after: Number(m[6]),
            reason: m[8],
          })
      }
    },
  }
}
