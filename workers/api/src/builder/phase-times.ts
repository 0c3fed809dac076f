/**
 * @module A full build's phase and phase times as stored, made whole when a build resumes. A
 * build can pause in one invocation and resume in another, after a deploy that changed the
 * stored shape: a phase it never charged, or one stored under a former name, must still add up.
 */
import type { FullProgress } from './state.ts'

type Phase = FullProgress['phase']
export type PhaseTimes = Record<Phase, number>

const PHASES: readonly string[] = ['write', 'buckets', 'prune'] satisfies Phase[]

/** Former names of a phase that a stored build may still carry. */
const FORMER_NAMES: Readonly<Record<string, Phase>> = { sweep: 'prune' }

const phaseNamed = (name: string): Phase | undefined =>
  PHASES.includes(name) ? (name as Phase) : FORMER_NAMES[name]

/** The phase a stored build resumes in; anything unknown is the last phase, as the step reads it. */
export function resumedPhase(stored: string): Phase {
  return phaseNamed(stored) ?? 'prune'
}

/**
 * Milliseconds per phase from what a stored build carries: every phase present (0 when never
 * charged), time under a former name added to its phase, anything not a finite number dropped.
 */
export function resumedPhaseTimes(
  stored: Readonly<Record<string, unknown>> | undefined
): PhaseTimes {
  const times: PhaseTimes = { write: 0, buckets: 0, prune: 0 }
  for (const [name, ms] of Object.entries(stored ?? {})) {
    const phase = phaseNamed(name)
    if (phase && typeof ms === 'number' && Number.isFinite(ms)) times[phase] += ms
  }
  return times
}
