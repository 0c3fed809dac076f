/**
 * @module A bound on how often an isolate logs failures: a flood of bad data or a bug hit by every
 * query must not turn into one log line per query. At most `limit` lines per `windowMs`; what was
 * held back is counted and reported with the next line that gets through.
 */
export class LogBudget {
  private windowStart = Number.NEGATIVE_INFINITY
  private used = 0
  private held = 0

  constructor(
    private readonly limit: number,
    private readonly windowMs: number,
    private readonly now: () => number = Date.now
  ) {}

  /**
   * Whether a line may be logged now; when it may, also how many lines were held back since the
   * last one that got through.
   */
  take(): { log: true; held: number } | { log: false } {
    const t = this.now()
    if (t - this.windowStart >= this.windowMs) {
      this.windowStart = t
      this.used = 0
    }
    if (this.used >= this.limit) {
      this.held++
      return { log: false }
    }
    this.used++
    const held = this.held
    this.held = 0
    return { log: true, held }
  }
}
