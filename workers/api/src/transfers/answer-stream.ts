/**
 * @module The byte stream of a relayed answer: its DNS messages, each with its TCP length prefix,
 * handed over a few at a time, and whether the answer completed a transfer (its first message had
 * RCODE 0, the stream was read to its end, and, for an IXFR, it was more than the single SOA that
 * tells the client it is current).
 */
import { concatBytes, frameTcp } from '@edgedns/dns-wire'

/**
 * Bytes of framed messages sent as one part of the answer's stream, at least (the last part may
 * be shorter): a transfer's messages (about 20 KB each) go out a few at a time, so the relay's
 * reader takes a third as many parts.
 */
const PART_BYTES = 60_000

/**
 * The answer of `messages` as a byte stream, each part at least `PART_BYTES` of whole framed
 * messages (a shorter last part), one part read ahead; `completed` resolves true once the last
 * part has been read, after a first message with RCODE 0; false when it failed or was cancelled,
 * or, answering an IXFR (`ixfr`), was one message of one record ("you are current": no transfer).
 */
export function streamOf(
  messages: AsyncGenerator<Uint8Array>,
  { ixfr = false }: { ixfr?: boolean } = {}
): {
  body: ReadableStream<Uint8Array>
  completed: Promise<boolean>
} {
  let done!: (ok: boolean) => void
  const completed = new Promise<boolean>((resolve) => (done = resolve))
  let messagesSeen = 0
  let ok = false
  /** Whether the answer so far is one message of one record. */
  let single = false
  // The messages ended: the stream closes (and `completed` resolves) at the next pull, which
  // comes once the last part has been read.
  let ended = false
  let cancelled = false
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      if (ended) {
        controller.close()
        done(ok && !(ixfr && messagesSeen === 1 && single))
        return
      }
      try {
        const part: Uint8Array[] = []
        let bytes = 0
        while (bytes < PART_BYTES) {
          const next = await messages.next()
          if (cancelled) return
          if (next.done) {
            if (part.length > 0) controller.enqueue(concatBytes(part))
            ended = true
            return
          }
          if (messagesSeen++ === 0) {
            // RCODE is the low four bits of the fourth octet; ANCOUNT the seventh and eighth.
            ok = (next.value[3]! & 0x0f) === 0
            single = ((next.value[6]! << 8) | next.value[7]!) === 1
          }
          const framed = frameTcp(next.value)
          part.push(framed)
          bytes += framed.length
        }
        controller.enqueue(part.length === 1 ? part[0]! : concatBytes(part))
      } catch (err) {
        done(false)
        if (cancelled) return
        console.warn('outgoing transfer failed:', err instanceof Error ? err.message : err)
        controller.error(err)
      }
    },
    async cancel() {
      cancelled = true
      done(false)
      await messages.return(undefined)
    },
  })
  return { body, completed }
}
