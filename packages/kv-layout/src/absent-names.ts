/**
 * @module Candidate names a view found not to be zones, each until a time: a short while when
 * nothing else tells (a zone may be created any moment), or until the hosted-zone index or a feed
 * entry for the name says otherwise (the view deletes the name then). Bounded: past the cap the
 * lapsed names go first, then the oldest.
 */
export class AbsentNames {
  readonly #until = new Map<string, number>()
  readonly #cap: number

  constructor(cap: number) {
    this.#cap = cap
  }

  has(name: string, now: number): boolean {
    const until = this.#until.get(name)
    return until !== undefined && until > now
  }

  /** `until` may be Infinity: kept until deleted or cleared. */
  mark(name: string, until: number, now: number): void {
    this.#until.delete(name)
    this.#until.set(name, until)
    if (this.#until.size <= this.#cap) return
    for (const [k, u] of this.#until)
      if (u <= now || this.#until.size > this.#cap / 2) this.#until.delete(k)
  }

  delete(name: string): void {
    this.#until.delete(name)
  }

  clear(): void {
    this.#until.clear()
  }

  get size(): number {
    return this.#until.size
  }
}
