/** @module The feed's checks of an appended entry and an offered head: input it refuses is the caller's bug. */
import { FEED_HEAD_MAX_CHARS, type FeedAppend, type FeedOp, type OfferedHead } from './protocol.ts'

/** Input the feed refuses (the caller's bug, never a transient failure). */
export class FeedInputError extends Error {
  override name = 'FeedInputError'
}

const MAX_NAME_CHARS = 253
const MAX_ID_CHARS = 64

/** The entry `e` if it is a well-formed append, or a FeedInputError saying what is wrong. */
export function checkAppend(e: unknown): FeedAppend {
  const x = e as Partial<FeedAppend> | null
  if (x === null || typeof x !== 'object') throw new FeedInputError('entry must be an object')
  const { zone, id, n, op } = x
  if (
    typeof zone !== 'string' ||
    zone.length > MAX_NAME_CHARS ||
    /[A-Z]/.test(zone) ||
    (zone.endsWith('.') && !zone.endsWith('\\.'))
  )
    throw new FeedInputError(`entry zone must be a normalised name, got ${JSON.stringify(zone)}`)
  if (typeof id !== 'string' || id.length === 0 || id.length > MAX_ID_CHARS)
    throw new FeedInputError(`entry id must be a zone id, got ${JSON.stringify(id)}`)
  if (typeof n !== 'number' || !Number.isSafeInteger(n) || n < 0)
    throw new FeedInputError(`entry n must be an integer ≥ 0, got ${JSON.stringify(n)}`)
  if (op !== 'head' && op !== 'delete')
    throw new FeedInputError(`entry op must be head or delete, got ${JSON.stringify(op)}`)
  const { head } = x
  if (head === undefined) return { zone, id, n, op: op satisfies FeedOp }
  if (op !== 'head' || n < 1 || typeof head !== 'string' || head.length > FEED_HEAD_MAX_CHARS)
    throw new FeedInputError(
      `entry head must be a head text of at most ${FEED_HEAD_MAX_CHARS} characters on a head entry with n ≥ 1`
    )
  return { zone, id, n, op, head }
}

/** Checks an offered head (`OfferedHead`): a head entry's fields, its text required. */
export function checkOffer(e: unknown): OfferedHead {
  if (e === null || typeof e !== 'object') throw new FeedInputError('offer must be an object')
  const a = checkAppend({ ...e, op: 'head' })
  if (a.head === undefined) throw new FeedInputError('an offered head carries its text')
  return { zone: a.zone, id: a.id, n: a.n, head: a.head }
}
