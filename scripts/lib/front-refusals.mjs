/**
 * @module The DNS front's log of what its limits refused: relays past the relay limits (over TCP
 * or UDP) and TCP connections past the cap on connections. A flood is refused by the thousand, and
 * a line for each refusal would flood the log in turn, so each client network (IPv4 /24, IPv6 /56)
 * gets at most one line every `intervalMs` (10 s), counting the refusals since its last line by
 * the setting that refused them. A network's first refusal after a quiet interval is logged at
 * once; the ones that follow are counted, and logged once its interval is over (at most one
 * interval later). At most `maxLines` networks get a line of their own in an interval; the others'
 * refusals go into one line together, written at most once an interval, so that a flood from many
 * networks (forged sources over UDP) writes at most `maxLines + 1` lines an interval. The state is
 * kept for at most `maxNetworks` networks (least recently refused dropped; their counts go into
 * that joint line), and the joint line tells apart at most `maxNetworks` more.
 */
import { LRUCache } from 'lru-cache'
import { clientNetwork } from './front-rrl.mjs'

/** "12 (DNS_FRONT_RELAY_CLIENT_RATE 10, DNS_FRONT_TCP_CLIENTS 2)" for counts by setting. */
function describe(counts) {
  let total = 0
  const parts = []
  for (const [setting, n] of counts) {
    total += n
    parts.push(`${setting} ${n}`)
  }
  return `${total} (${parts.join(', ')})`
}

/** Adds the counts of `from` to `into` (both Maps of setting → refusals). */
function addCounts(into, from) {
  for (const [setting, n] of from) into.set(setting, (into.get(setting) ?? 0) + n)
}

/**
 * `note(address, setting)` counts one refusal of a request or connection from `address` by the
 * limit `setting` names (its environment variable). Lines go to `log` (console.warn, the front's
 * log). `flush()` writes the lines that are due (a timer calls it while any count waits);
 * `close()` stops that timer. `now()` is the clock in milliseconds (tests pass their own, and call
 * `flush` themselves).
 */
export function refusalLog({
  intervalMs = 10_000,
  maxLines = 20,
  maxNetworks = 10_000,
  log = console.warn,
  now = () => performance.now(),
} = {}) {
  /**
   * Refusals of networks without a line of their own: the joint line's counts, and its networks
   * (told apart up to `maxNetworks`, then only counted as more: forged sources are endless).
   */
  let others = { networks: new Set(), more: false, counts: new Map() }
  const addOther = (network, counts) => {
    if (others.networks.size < maxNetworks) others.networks.add(network)
    else if (!others.networks.has(network)) others.more = true
    addCounts(others.counts, counts)
  }
  /** Per network: refusals since its last line (by setting), and when that line was written. */
  const networks = new LRUCache({
    max: Math.max(1, maxNetworks),
    dispose(entry, network, reason) {
      if (reason !== 'evict' || entry.counts.size === 0) return
      addOther(network, entry.counts)
      schedule(jointAt + intervalMs)
    },
  })
  let intervalStart = now()
  let lines = 0
  let timer = null
  let timerAt = Infinity
  /** When the joint line was last written. */
  let jointAt = -Infinity
  const seconds = `${Math.round(intervalMs / 100) / 10} s`

  /** Starts a new interval (and its budget of lines) once the current one is over. */
  const roll = (t) => {
    if (t - intervalStart < intervalMs) return
    intervalStart = t
    lines = 0
  }
  /** Writes `network`'s line when its interval is over and the budget allows; true if written. */
  const write = (network, entry, t) => {
    if (t - entry.last < intervalMs || lines >= maxLines) return false
    log(`dns front: limits refused ${describe(entry.counts)} from ${network}`)
    lines += 1
    entry.last = t
    entry.counts = new Map()
    return true
  }
  /** Makes sure `flush` runs by the time `at` (a count waits for a line due then). */
  const schedule = (at) => {
    if (timer && timerAt <= at) return
    clearTimeout(timer)
    timerAt = at
    const delay = Math.min(intervalMs, Math.max(0, at - now()))
    timer = setTimeout(() => {
      timer = null
      timerAt = Infinity
      flush()
    }, delay)
    timer.unref?.()
  }

  function flush() {
    const t = now()
    roll(t)
    let due = Infinity
    for (const [network, entry] of networks.entries()) {
      if (entry.counts.size === 0 || write(network, entry, t)) continue
      if (t - entry.last < intervalMs) {
        due = Math.min(due, entry.last + intervalMs) // its line is due later
        continue
      }
      // Past this interval's budget: counted in the joint line.
      addOther(network, entry.counts)
      entry.counts = new Map()
    }
    if (others.counts.size > 0 && t - jointAt >= intervalMs) {
      log(
        `dns front: limits refused ${describe(others.counts)} from ` +
          `${others.more ? 'more than ' : ''}${others.networks.size} other client networks in the last ${seconds}`
      )
      others = { networks: new Set(), more: false, counts: new Map() }
      jointAt = t
    }
    if (others.counts.size > 0) due = Math.min(due, jointAt + intervalMs)
    if (due < Infinity) schedule(due)
  }

  return {
    note(address, setting) {
      const t = now()
      roll(t)
      const network = address ? clientNetwork(address) : 'an unknown address'
      let entry = networks.get(network)
      if (!entry) {
        entry = { counts: new Map(), last: -Infinity }
        networks.set(network, entry)
      }
      entry.counts.set(setting, (entry.counts.get(setting) ?? 0) + 1)
      if (write(network, entry, t)) return
      const budget = lines >= maxLines ? intervalStart + intervalMs : -Infinity
      schedule(Math.max(entry.last + intervalMs, budget))
    },
    flush,
    close() {
      clearTimeout(timer)
      timer = null
    },
  }
}
