/**
 * @module Signature validity: inception backdated for clocks that run behind, expiration a week
 * out plus a per-RRset jitter (so signatures made together do not all expire together), and how
 * long a cached signature may be reused before it is made afresh.
 */

export interface ValidityPolicy {
  /** Seconds a signature is valid after it is made (before jitter). */
  lifetime: number
  /** Up to this many seconds are added to the lifetime, chosen from the RRset (deterministic). */
  jitter: number
  /** Inception lies this far in the past, for validators whose clock is behind ours. */
  skew: number
  /** A cached signature is reused for at most this long; well inside `lifetime`. */
  reuse: number
}

export const DEFAULT_VALIDITY: ValidityPolicy = {
  lifetime: 7 * 86400,
  jitter: 86400,
  skew: 3600,
  reuse: 86400,
}

export interface Validity {
  inception: number
  expiration: number
}

/** FNV-1a of a string: the RRset's share of the jitter. */
function spread(seed: string): number {
  let h = 0x811c9dc5
  for (let i = 0; i < seed.length; i++) h = Math.imul(h ^ seed.charCodeAt(i), 0x01000193)
  return (h >>> 0) / 0x100000000
}

export function validityAt(
  nowSeconds: number,
  seed: string,
  policy: ValidityPolicy = DEFAULT_VALIDITY
): Validity {
  // Whole hours: signatures made within the same hour share an inception.
  const hour = Math.floor(nowSeconds / 3600) * 3600
  return {
    inception: hour - policy.skew,
    expiration: hour + policy.lifetime + Math.floor(spread(seed) * policy.jitter),
  }
}
