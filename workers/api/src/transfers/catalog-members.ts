/**
 * @module The members of an account's catalog zone read from D1 with the catalog's serial, in one
 * batch (one transaction, so one version of the catalog): the account's live primary zones whose
 * outgoing transfers are enabled, in name order, joined into strings of `CATALOG_CHUNK` members
 * (`db/joined-rows.ts`). A catalog of up to `CATALOG_BATCH` members is read in one batch; a larger
 * one in batches of that many, each with the serial again.
 */
import type { CatalogMember } from '@edgedns/zone-transfer'
import { SEPARATOR, type JoinedRows } from '../db/joined-rows.ts'

/**
 * Members joined into one string: 5,000 of at most 287 bytes (a 32-character zone id, a name of at
 * most 253, two separators) stay under D1's longest string (2,000,000 bytes).
 */
const CATALOG_CHUNK = 5_000

/**
 * Members read in one batch: about 5 MB of strings for names of 20 characters, 29 MB at most, so
 * an account of 100,000 zones is read in one transaction in a Worker's 128 MB.
 */
export const CATALOG_BATCH = 100_000

export interface CatalogSizes {
  /** Members a joined string holds at most. */
  chunk: number
  /** Members a batch reads at most. */
  batch: number
}

export const CATALOG_SIZES: CatalogSizes = { chunk: CATALOG_CHUNK, batch: CATALOG_BATCH }

/**
 * The members of account ?1 after (name, id) = (?2, ?3), in name order, at most ?4: its zones that
 * are live (active, or moving between shards once activated: a move's fence sets pending zones
 * 'moving' too, and they are pending again on the shard they move to), primary (`full` or
 * `partial`, the types outgoing transfers are configured on) and whose outgoing transfers are
 * enabled.
 */
const MEMBERS_SQL = `SELECT z.id, z.name FROM zones AS z
  JOIN zone_transfers_outgoing AS o ON o.zone_id = z.id
  WHERE z.account_id = ?1 AND z.status IN ('active', 'moving') AND z.type IN ('full', 'partial')
    AND (z.status = 'active' OR z.activated_on IS NOT NULL)
    AND o.enabled = 1 AND (z.name, z.id) > (?2, ?3)
  ORDER BY z.name, z.id LIMIT ?4`

/**
 * `MEMBERS_SQL`'s members as joined strings (`db/joined-rows.ts`: id and name, each member after
 * the other) of ?5 members each, in order: one row `{page, records}` a string.
 */
const CHUNKS_SQL = `WITH members AS (${MEMBERS_SQL}),
  numbered AS (SELECT id, name, (row_number() OVER (ORDER BY name, id) - 1) / ?5 AS chunk
    FROM members)
  SELECT group_concat(id || char(127) || name, char(127) ORDER BY name, id) AS page,
    count(*) AS records
  FROM numbered GROUP BY chunk ORDER BY chunk`

/**
 * How an SQLite that does not take `ORDER BY` inside an aggregate (before 3.44) refuses
 * `CHUNKS_SQL`; D1 reports it as `D1_ERROR: near "ORDER": syntax error at offset …`.
 */
const NO_ORDERED_AGGREGATES = /near "ORDER": syntax error/

/** The serial of catalog ?1 while it is served (present and enabled). */
const SERIAL_SQL =
  'SELECT serial FROM transfer_catalogs WHERE id = ?1 AND deleted_on IS NULL AND enabled = 1'

/** Which catalog, and which account's zones are its members. */
export interface CatalogKey {
  id: string
  account_id: string
}

/** One batch: the catalog's serial (null once it is no longer served) and members as read. */
export interface MemberBatch {
  serial: number | null
  /** The members, as joined strings or (when one did not split) as rows; let go as they are read. */
  chunks: (JoinedRows | CatalogMember[])[]
  /** How many members the batch read. */
  count: number
}

/** Whether a joined string splits into `records` members of two fields each. */
function splits({ page, records }: JoinedRows): boolean {
  if (page === null) return records === 0
  let separators = 0
  for (let at = page.indexOf(SEPARATOR); at >= 0; at = page.indexOf(SEPARATOR, at + 1)) separators++
  return separators === records * 2 - 1
}

/** The members of a joined string (one that `splits`), in its order. */
function* joinedMembers({ page }: JoinedRows): Generator<CatalogMember> {
  if (page === null) return
  for (let at = 0; at < page.length;) {
    const sep = page.indexOf(SEPARATOR, at)
    const end = page.indexOf(SEPARATOR, sep + 1)
    const to = end < 0 ? page.length : end
    yield { id: page.slice(at, sep), name: page.slice(sep + 1, to) }
    at = to + 1
  }
}

/**
 * The catalog's serial and its first `sizes.batch` members after `after`, in one batch. The members
 * come as joined strings; when the SQLite refuses the joined read (`NO_ORDERED_AGGREGATES`) or a
 * string does not split (a field held the separator), the batch is read again with them as rows.
 * Any other error is thrown: the transfer fails, and the secondary asks again.
 */
export async function readMemberBatch(
  db: D1Database,
  catalog: CatalogKey,
  after: readonly [string, string],
  sizes: CatalogSizes
): Promise<MemberBatch> {
  const serial = () => db.prepare(SERIAL_SQL).bind(catalog.id)
  const serialOf = (r: D1Result | undefined) =>
    (r!.results[0] as { serial: number } | undefined)?.serial ?? null
  const key = [catalog.account_id, ...after, sizes.batch] as const
  const joined = await db
    .batch([serial(), db.prepare(CHUNKS_SQL).bind(...key, sizes.chunk)])
    .catch((e: unknown) => {
      if (!NO_ORDERED_AGGREGATES.test(e instanceof Error ? e.message : String(e))) throw e
      console.warn(
        'catalog members: the joined read is refused; read as rows',
        catalog.id,
        String(e)
      )
      return null
    })
  if (joined) {
    const [s, c] = joined
    const chunks = c!.results as JoinedRows[]
    const count = chunks.reduce((n, chunk) => n + chunk.records, 0)
    if (chunks.every(splits)) return { serial: serialOf(s), chunks, count }
    console.warn('catalog members: a joined string does not split; read as rows', catalog.id)
  }
  const [s2, rows] = await db.batch([serial(), db.prepare(MEMBERS_SQL).bind(...key)])
  const members = rows!.results as CatalogMember[]
  return { serial: serialOf(s2), chunks: [members], count: members.length }
}

/** The members of a batch in order, each joined string or set of rows let go once read. */
export function* membersOf({ chunks }: MemberBatch): Generator<CatalogMember> {
  for (let chunk; (chunk = chunks.shift());)
    if (Array.isArray(chunk)) yield* chunk
    else yield* joinedMembers(chunk)
}
