/**
 * @module A progress bar on stderr: redrawn in place on a terminal, one line per update otherwise.
 */

export interface Sink {
  isTTY?: boolean
  columns?: number
  write(s: string): unknown
}

export class ProgressBar {
  private readonly out: Sink
  private readonly label: string
  private readonly started = Date.now()
  private last = ''

  constructor(out: Sink, label: string) {
    this.out = out
    this.label = label
  }

  render(done: number, total: number, note = ''): string {
    const width = Math.max(10, Math.min(40, (this.out.columns ?? 80) - 60))
    const frac = total > 0 ? Math.min(1, done / total) : 0
    const fill = Math.round(frac * width)
    const secs = ((Date.now() - this.started) / 1000).toFixed(1)
    return `${this.label} [${'#'.repeat(fill)}${'.'.repeat(width - fill)}] ${Math.floor(frac * 100)}% ${done}/${total} ${note} ${secs}s`.trimEnd()
  }

  update(done: number, total: number, note = ''): void {
    const line = this.render(done, total, note)
    if (line === this.last) return
    this.last = line
    this.out.write(this.out.isTTY ? `\r\x1b[K${line}` : `${line}\n`)
  }

  /** A spinner for work whose progress the server does not report (an import is one request). */
  spin(note: () => string): () => void {
    if (!this.out.isTTY) {
      this.out.write(`${this.label} ${note()}\n`)
      return () => {}
    }
    const frames = '|/-\\'
    let i = 0
    const timer = setInterval(() => {
      const secs = ((Date.now() - this.started) / 1000).toFixed(1)
      this.out.write(`\r\x1b[K${this.label} ${frames[i++ % 4]} ${note()} ${secs}s`)
    }, 100)
    return () => clearInterval(timer)
  }

  done(message: string): void {
    this.out.write(this.out.isTTY ? `\r\x1b[K${message}\n` : `${message}\n`)
  }
}
