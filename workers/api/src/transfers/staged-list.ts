/**
 * @module A transfer's staged list (its additions, or an IXFR's deletions) in `import_staging`:
 * records written in bounded statements as they arrive, many records to a staged row, read by the
 * commit (transfer-commit.ts) in `ord` ranges, and discarded after it.
 */
/** Records per staged row at most, and about the most characters (a longer record alone). */
const RECORDS_PER_ROW = 100
const ROW_CHARS = 300_000

/**
 * The most UTF-8 bytes a staging statement's one parameter (its records' JSON) may take: under D1's
 * 2,000,000-byte string limit, with room for the brackets and commas around its staged rows.
 */
const STAGE_BYTES = 1_800_000

/** A record's JSON counted as this many bytes a character unless it is ASCII (UTF-8's most a UTF-16 unit). */
const NON_ASCII_BYTES_PER_CHAR = 3
const NON_ASCII = /[^\x00-\x7f]/

/**
 * About the most characters of staged rows one statement reads (the commit's) or deletes (a
 * discard's), a longer row alone: each stays far below D1's per-query time whatever the records'
 * length.
 */
const STATEMENT_CHARS = 20_000_000

/** Staged rows a discard statement deletes at most: a million short records in a few statements. */
const DISCARD_ROWS = 2_000

const STAGE_ROWS = `INSERT INTO import_staging (import_id, ord, zone_id, row, created_on)
  SELECT ?1, ?2 + key, ?3, value, ?4 FROM json_each(?5)`

const DISCARD = 'DELETE FROM import_staging WHERE import_id = ?1 AND ord BETWEEN ?2 AND ?3'

const READ_ROWS = `SELECT ord, row FROM import_staging
  WHERE import_id = ?1 AND ord IN (SELECT value FROM json_each(?2)) ORDER BY ord`

/** Staged rows read back a query (`recordsAt`): at most this many, of about this many characters. */
const READ_BACK_ROWS = 100
const READ_BACK_CHARS = 1_000_000

/**
 * One staged list (additions or deletions), flushed in bounded statements as it fills. A staged
 * row holds up to `RECORDS_PER_ROW` records and about ROW_CHARS characters (a JSON array of their
 * staged columns): the table's row and index writes, and the discard's deletes, are per staged
 * row, not per record.
 */
export class StagedList {
  /**
   * Records staged before each staged row, by `ord`, and the total after the last: the staged
   * rows written are its length - 1 (their `ord`s 0 … rows - 1).
   */
  readonly #recordsBefore: number[] = [0]
  /** The characters of each staged row written, by `ord`. */
  readonly #rowChars: number[] = []
  /** JSON of the records not flushed yet, and the UTF-8 bytes they take at most (commas included). */
  #records: string[] = []
  #bytes = 0
  readonly #perRow: number
  constructor(
    private readonly db: D1Database,
    readonly id: string,
    private readonly zoneId: string,
    private readonly now: string,
    private readonly rowsPerStatement: number
  ) {
    this.#perRow = Math.min(RECORDS_PER_ROW, rowsPerStatement)
  }

  async add(row: unknown[]): Promise<void> {
    await this.addJson(JSON.stringify(row))
  }

  /** Adds a staged row given as its JSON. */
  async addJson(json: string): Promise<void> {
    const bytes = (NON_ASCII.test(json) ? NON_ASCII_BYTES_PER_CHAR * json.length : json.length) + 1
    if (this.#records.length >= this.rowsPerStatement || this.#bytes + bytes > STAGE_BYTES)
      await this.flush()
    this.#records.push(json)
    this.#bytes += bytes
  }

  async flush(): Promise<void> {
    if (this.#records.length === 0) return
    const first = this.#stagedRows
    const rows: string[] = []
    const pending = this.#records
    for (let i = 0; i < pending.length;) {
      let end = i + 1
      let chars = pending[i]!.length + 2
      while (
        end < pending.length &&
        end - i < this.#perRow &&
        chars + pending[end]!.length + 1 <= ROW_CHARS
      )
        chars += pending[end++]!.length + 1
      rows.push(`[${pending.slice(i, end).join(',')}]`)
      this.#rowChars.push(chars)
      this.#recordsBefore.push(this.#recordsBefore.at(-1)! + end - i)
      i = end
    }
    this.#records = []
    this.#bytes = 0
    await this.db
      .prepare(STAGE_ROWS)
      .bind(this.id, first, this.zoneId, this.now, `[${rows.join(',')}]`)
      .run()
  }

  /**
   * Ends the records added so far with a staged row of their own (an IXFR step's end); the `ord`
   * the next record's staged row will have.
   */
  async boundary(): Promise<number> {
    await this.flush()
    return this.#stagedRows
  }

  /**
   * `ord` ranges of the staged rows from `from` up to `to` (all of them by default), each holding
   * at most `rowsPerStatement` records and about STATEMENT_CHARS characters.
   */
  ranges(from = 0, to = this.#stagedRows): [number, number][] {
    return this.#groups(from, to, Math.max(1, Math.floor(this.rowsPerStatement / this.#perRow)))
  }

  /** Staged rows `from` … `to - 1` in consecutive ranges of at most `rows` rows and about STATEMENT_CHARS characters. */
  #groups(from: number, to: number, rows: number): [number, number][] {
    const out: [number, number][] = []
    for (let lo = from; lo < to;) {
      let hi = lo
      let chars = this.#rowChars[lo]!
      while (
        hi + 1 < to &&
        hi + 1 - lo < rows &&
        chars + this.#rowChars[hi + 1]! <= STATEMENT_CHARS
      )
        chars += this.#rowChars[++hi]!
      out.push([lo, hi])
      lo = hi + 1
    }
    return out
  }

  /** Records in the staged rows `lo` … `hi` (all of them by default; flushed rows only). */
  records(lo = 0, hi = this.#stagedRows - 1): number {
    return this.#recordsBefore[hi + 1]! - this.#recordsBefore[lo]!
  }

  /**
   * The JSON of the records at `indices` (in the order added, counted from 0; ascending, flushed
   * rows only), as `addJson` was given it, read back from the staged rows that hold them.
   */
  async *recordsAt(indices: readonly number[]): AsyncGenerator<string> {
    const before = this.#recordsBefore
    const wanted = new Map<number, number[]>()
    let ord = 0
    for (const i of indices) {
      while (before[ord + 1]! <= i) ord++
      if (ord >= this.#stagedRows) throw new Error(`staged list: no record ${i}`)
      const offsets = wanted.get(ord)
      if (offsets) offsets.push(i - before[ord]!)
      else wanted.set(ord, [i - before[ord]!])
    }
    const ords = [...wanted.keys()]
    let read = 0
    for (let k = 0; k < ords.length;) {
      const batch: number[] = []
      let chars = 0
      while (k < ords.length && batch.length < READ_BACK_ROWS) {
        const ord = ords[k]!
        if (batch.length > 0 && chars + this.#rowChars[ord]! > READ_BACK_CHARS) break
        chars += this.#rowChars[ord]!
        batch.push(ord)
        k++
      }
      const { results } = await this.db
        .prepare(READ_ROWS)
        .bind(this.id, JSON.stringify(batch))
        .all<{ ord: number; row: string }>()
      for (const { ord: at, row } of results) {
        const records = JSON.parse(row) as unknown[]
        for (const offset of wanted.get(at)!) yield JSON.stringify(records[offset])
        read++
      }
    }
    if (read !== ords.length)
      throw new Error(`staged list: ${ords.length - read} rows not read back`)
  }

  /** Staged rows written. */
  get #stagedRows(): number {
    return this.#recordsBefore.length - 1
  }

  /** Deletes the staged rows written, at most DISCARD_ROWS of about STATEMENT_CHARS characters a statement. */
  async discard(): Promise<void> {
    for (const [lo, hi] of this.#groups(0, this.#stagedRows, DISCARD_ROWS))
      await this.db.prepare(DISCARD).bind(this.id, lo, hi).run()
  }
}
