/**
 * @module A transfer's staged list (its additions, or an IXFR's deletions) in `import_staging`:
 * records written in bounded statements as they arrive, many records to a staged row, read by the
 * commit (transfer-commit.ts) in `ord` ranges, and discarded after it.
 */
/** Records per staged row (see StagedList). */
const RECORDS_PER_ROW = 100

/**
 * The most UTF-8 bytes a staging statement's one parameter (its records' JSON) may take: under D1's
 * 2,000,000-byte string limit, with room for the brackets and commas around its staged rows.
 */
const STAGE_BYTES = 1_800_000

/** A record's JSON counted as this many bytes a character unless it is ASCII (UTF-8's most a UTF-16 unit). */
const NON_ASCII_BYTES_PER_CHAR = 3
const NON_ASCII = /[^\x00-\x7f]/

/**
 * Staged rows a discard statement deletes at most, and about the most characters: a transfer of a
 * million short records is discarded in a few statements, each far below D1's per-query time.
 */
const DISCARD_ROWS = 2_000
const DISCARD_CHARS = 20_000_000

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
 * row holds up to `RECORDS_PER_ROW` records (a JSON array of their staged columns): the table's
 * row and index writes, and the discard's deletes, are per staged row, not per record.
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
    for (let i = 0; i < this.#records.length; i += this.#perRow) {
      const records = this.#records.slice(i, i + this.#perRow)
      rows.push(`[${records.join(',')}]`)
      this.#rowChars.push(rows.at(-1)!.length)
      this.#recordsBefore.push(this.#recordsBefore.at(-1)! + records.length)
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
   * at most `rowsPerStatement` records.
   */
  ranges(from = 0, to = this.#stagedRows): [number, number][] {
    const per = Math.max(1, Math.floor(this.rowsPerStatement / this.#perRow))
    const out: [number, number][] = []
    for (let lo = from; lo < to; lo += per) out.push([lo, Math.min(to, lo + per) - 1])
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

  /**
   * Deletes the staged rows written, at most DISCARD_ROWS of about DISCARD_CHARS characters a
   * statement (a row longer than that alone).
   */
  async discard(): Promise<void> {
    for (let lo = 0; lo < this.#stagedRows;) {
      let hi = lo
      let chars = this.#rowChars[lo]!
      while (
        hi + 1 < this.#stagedRows &&
        hi + 1 - lo < DISCARD_ROWS &&
        chars + this.#rowChars[hi + 1]! <= DISCARD_CHARS
      )
        chars += this.#rowChars[++hi]!
      await this.db.prepare(DISCARD).bind(this.id, lo, hi).run()
      lo = hi + 1
    }
  }
}
