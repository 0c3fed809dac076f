/**
 * @module loopback: the one rule for which hosts name this machine, shared by the API worker (its
 * local-development guard against DNS rebinding) and the local stack's fronts (scripts/lib), which
 * import this file directly. Pure: no Node or Workers APIs beyond `URL`.
 */

const IPV4_LOOPBACK = /^127\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/

/** Whether an IPv6 address, in any textual form (`::1`, `0:0:0:0:0:0:0:1`), is the loopback one. */
function isLoopbackIPv6(address: string): boolean {
  if (!/^[0-9a-f:.]+$/.test(address)) return false
  try {
    return new URL(`http://[${address}]/`).hostname === '[::1]'
  } catch {
    return false
  }
}

/** A port as a Host header may end with one: decimal digits, 0–65535 (a URL could not hold more). */
function validPort(port: string | undefined): boolean {
  return port === undefined || (/^\d{1,5}$/.test(port) && Number(port) <= 65535)
}

/**
 * True for a loopback host, with or without a port: `localhost`, an IPv4 address in 127.0.0.0/8
 * written as four decimal octets, or the IPv6 loopback address in brackets in any of its textual
 * forms (`[::1]`, `[0:0:0:0:0:0:0:1]`), or bare without a port (`::1`). Case-insensitive. Takes
 * a Host header or a URL's `host` or `hostname`. A port past 65535, an empty port (`localhost:`)
 * or one that is not digits makes the host no loopback host: the request is refused (403) rather
 * than forwarded to a runtime that cannot make a URL of it.
 */
export function isLoopbackHost(host: unknown): boolean {
  if (typeof host !== 'string') return false
  const h = host.trim().toLowerCase()
  if (h.startsWith('[')) {
    const m = /^\[([^\]]*)\](?::(\d+))?$/.exec(h)
    return m !== null && validPort(m[2]) && isLoopbackIPv6(m[1] as string)
  }
  if (h.indexOf(':') !== h.lastIndexOf(':')) return isLoopbackIPv6(h)
  const m = /^([^:]+)(?::(\d+))?$/.exec(h)
  if (m === null || !validPort(m[2])) return false
  const name = m[1] as string
  if (name === 'localhost') return true
  const v4 = IPV4_LOOPBACK.exec(name)
  return v4 !== null && v4.slice(1).every((octet) => Number(octet) <= 255)
}
