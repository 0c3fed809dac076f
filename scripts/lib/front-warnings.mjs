/**
 * @module The DNS front's log of failures that a client or a broken API can repeat at will (a
 * relay the API did not answer, a relayed answer cut off after its time limit). Each kind of
 * failure gets at most one line every `intervalMs` (10 s): the first at once, the ones that follow
 * counted and written as one line when the interval is over, with the last one's text.
 */

/**
 * `warn(kind, text)` logs a failure of `kind` ("transfer relay failed"); `close()` stops the timer
 * that writes the counted lines. Lines go to `log` (console.warn); `now()` is the clock in
 * milliseconds (tests pass their own and call `flush` themselves).
 */
export function warningLog({
  intervalMs = 10_000,
  log = console.warn,
  now = () => performance.now(),
} = {}) {
  /** Per kind: when its last line was written, failures counted since, and the last one's text. */
  const kinds = new Map()
  let timer = null
  let timerAt = Infinity
  const seconds = `${intervalMs / 1000} s`

  /** Makes sure `flush` runs by the time `at`. */
  const schedule = (at) => {
    if (timer && timerAt <= at) return
    clearTimeout(timer)
    timerAt = at
    timer = setTimeout(
      () => {
        timer = null
        timerAt = Infinity
        flush()
      },
      Math.max(0, at - now())
    )
    timer.unref?.()
  }

  /** Writes the counted lines that are due; forgets kinds quiet for an interval. */
  function flush() {
    const t = now()
    let due = Infinity
    for (const [kind, entry] of kinds) {
      if (t - entry.last < intervalMs) {
        if (entry.counted > 0) due = Math.min(due, entry.last + intervalMs)
        continue
      }
      if (entry.counted === 0) {
        kinds.delete(kind)
        continue
      }
      log(
        `dns front: ${kind}: ${entry.counted} more in the last ${seconds}, the last: ${entry.text}`
      )
      entry.last = t
      entry.counted = 0
    }
    if (due < Infinity) schedule(due)
  }

  return {
    warn(kind, text) {
      const t = now()
      const entry = kinds.get(kind)
      if (!entry || (entry.counted === 0 && t - entry.last >= intervalMs)) {
        log(`dns front: ${kind}: ${text}`)
        kinds.set(kind, { last: t, counted: 0, text })
        return
      }
      entry.counted += 1
      entry.text = text
      if (t - entry.last >= intervalMs) flush()
      else schedule(entry.last + intervalMs)
    },
    flush,
    close() {
      clearTimeout(timer)
      timer = null
      timerAt = Infinity
    },
  }
}
