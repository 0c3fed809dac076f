/**
 * @module What one build step works with: I/O, ledger, KV budget, limits and the mutable state.
 */
import type { HintChain } from './hints.ts'
import type { BuilderIo, KvBudget } from './io.ts'
import type { KeyLedger } from './ledger.ts'
import type { BuildLimits } from './limits.ts'
import type { NodeMirror } from './mirror.ts'
import type { BuilderState } from './state.ts'
import type { VersionStore } from './versions.ts'

export interface StepContext {
  io: BuilderIo
  ledger: KeyLedger
  /** The zone's nodes by name hash, buckets are assembled from it. */
  mirror: NodeMirror
  /** Bucket versions named by the heads, writes since the last head, retirement queue. */
  versions: VersionStore
  budget: KvBudget
  limits: BuildLimits
  state: BuilderState
  /** Persists `state` (synchronous, DO storage). */
  save(): void
  /**
   * True while a notification waits for this step to end: background bucket writing stops
   * at its next slice so the waiting change is built first.
   */
  preempted?: () => boolean
  /** What recent notifications said they changed (per-record passes read with it). */
  hints?: HintChain
  /** When the notification this step serves arrived (null for alarms and other calls). */
  calledAt?: number | null
  /** Set by a per-record pass that consumed every notified change: the step reads no more log. */
  drained?: boolean
  /**
   * Called by a per-record pass once it has read the zone's log and found outgoing transfers
   * enabled: the NOTIFY round's read of the peers starts then, while the head is written.
   */
  outgoingSeen?: (() => void) | undefined
  /**
   * Called right after a per-record pass's head is announced (offered to watching isolates, or
   * appended): with `yieldToReaders` leaves the runtime's thread for a moment
   * (`yieldAfterHeadMs`; locally the readers take the change before the rest of the step), then
   * arms the safety alarm (a crash before the head is recorded is then retried within its delay).
   */
  afterAnnounce?: ((yieldToReaders: boolean) => Promise<void>) | undefined
  /** Set by a full build step: charges elapsed time to the current phase before it changes. */
  onPhase?: (() => void) | undefined
}

/** What a build step achieved. */
export type StepOutcome =
  /** Caught up: nothing left to build. */
  | { kind: 'idle' }
  /** Progress made; call again (the budget decides whether in this invocation or the next). */
  | { kind: 'progress' }
  /** A key was written too recently; continue at `until`. */
  | { kind: 'deferred'; until: number }
