/**
 * @module Why a transfer was broken off: an outgoing one mid-stream (the secondary discards what
 * it got), an incoming one before its commit (nothing of it is committed); and which failures of
 * an incoming IXFR an AXFR may cure.
 */
import { DnsFormatError } from '@edgedns/dns-wire'
import { TransferError } from '@edgedns/zone-transfer'

/** The zone changed while its transfer was read: the copy would mix two versions under one serial. */
export class ZoneChangedDuringTransfer extends Error {
  constructor(zone: string) {
    super(`${zone} changed during its transfer; the transfer was broken off`)
    this.name = 'ZoneChangedDuringTransfer'
  }
}

/**
 * An IXFR that does not apply to our copy of the zone (RFC 1995 §4: the primary's difference is
 * from another version than ours). Nothing of it was committed; pull the zone by AXFR instead.
 */
export class IxfrNotExact extends Error {
  constructor(options: { cause: unknown }) {
    super(
      'the IXFR does not apply to the zone we hold (a deletion or addition does not match)',
      options
    )
    this.name = 'IxfrNotExact'
  }
}

/** An IXFR of more runs than MAX_IXFR_STEPS: nothing is committed; pull the AXFR instead. */
export class TooManyIxfrSteps extends Error {
  constructor(maxSteps: number) {
    super(`the IXFR has more than ${maxSteps} runs of deletions and additions`)
    this.name = 'TooManyIxfrSteps'
  }
}

/**
 * A transfer that would leave the zone in a shape no server may serve (zone-shape.ts): nothing of
 * it is committed, the copy held stays. An AXFR would not cure it: the primary's zone is so.
 */
export class BadZoneShape extends Error {
  constructor(why: string, options: { cause: unknown }) {
    super(`the zone as transferred ${why}; it was not committed (the copy held is kept)`, options)
    this.name = 'BadZoneShape'
  }
}

/** A transfer that sent more records than its cap; nothing of it is committed. */
export class TransferTooLarge extends Error {
  constructor(cap: number) {
    super(`the transfer holds more than ${cap} records`)
    this.name = 'TransferTooLarge'
  }
}

/**
 * Whether an IXFR that failed with `e` is asked again as an AXFR (as BIND does): when the primary's
 * answer could not be used (an error rcode such as NOTIMP from a primary without IXFR, a malformed
 * difference, one that does not start from our serial) or did not apply to our copy
 * (IxfrNotExact), or had more runs than we apply in one commit (TooManyIxfrSteps). Not when it failed its signature, the connection failed or timed out, or the
 * transfer passed its record cap: an AXFR from the same primary would fail alike.
 */
export function axfrMayWork(e: unknown): boolean {
  if (e instanceof IxfrNotExact) return true
  const cause = e instanceof Error ? e.cause : undefined
  return (
    cause instanceof TransferError ||
    cause instanceof DnsFormatError ||
    cause instanceof TooManyIxfrSteps
  )
}
