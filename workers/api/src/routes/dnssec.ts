/**
 * @module Cloudflare's DNSSEC endpoints of a zone, plus key rollover (ours):
 *   GET    /zones/:zone_id/dnssec              → status and the DS to give the registrar
 *   PATCH  /zones/:zone_id/dnssec              { status: 'active' | 'disabled' }
 *   DELETE /zones/:zone_id/dnssec              → keys removed at once (answers unsigned)
 *   POST   /zones/:zone_id/dnssec/keys         → rollover step 1: a second key, both sign
 *   DELETE /zones/:zone_id/dnssec/keys/:tag    → rollover step 3: the old key removed
 * Every change is one guarded D1 batch with a change-log entry, so the builder republishes the
 * zone's metadata (`ZoneMeta.dnssec`) like any settings change.
 */
import {
  generateSigningKeyAvoiding,
  KeyTagCollision,
  sealPrivateKey,
  MIN_SECRET_LENGTH,
} from '@edgedns/dnssec'
import { Hono, type Context } from 'hono'
import { z } from 'zod'
import {
  announceCommit,
  CommitConflict,
  commitZoneChange,
  guardStatement,
  zoneLogStatement,
} from '../commit/zone-change.ts'
import { dnssecResult } from '../dnssec/result.ts'
import {
  parseDnssecState,
  reportedStatus,
  type DnssecState,
  type StoredKey,
} from '../dnssec/state.ts'
import { ApiError, Codes } from '../http/api-error.ts'
import type { AppEnv } from '../http/app-env.ts'
import { readBody, readOptionalBody } from '../http/body.ts'
import { ok } from '../http/envelope.ts'
import { nowIso } from '../http/ids.ts'
import { zoneFor } from '../zones/access.ts'
import type { ZoneRow } from '../zones/model.ts'

export const dnssecApp = new Hono<AppEnv>()

/** Default seconds a disabled zone keeps signing: two days covers a day-long DS TTL at resolvers. */
export const DEFAULT_DISABLE_GRACE = 2 * 86400
/** Keys a zone may have at once (one, two while rolling over). */
const MAX_KEYS = 2

export const dnssecEditSchema = z
  .object({
    status: z.enum(['active', 'disabled']).optional(),
    dnssec_multi_signer: z.literal(false).optional(),
    dnssec_presigned: z.literal(false).optional(),
    dnssec_use_nsec3: z.literal(false).optional(),
  })
  .strict()

/** `POST …/dnssec/keys` takes no settings: no body, or an empty object (a field is refused). */
const dnssecKeyCreateSchema = z.object({}).strict()

type Ctx = Context<AppEnv>

/** The `:tag` of `DELETE …/dnssec/keys/:tag`: a key tag is 16 bits, written in decimal. */
function keyTagParam(c: Ctx): number {
  const raw = c.req.param('tag') ?? ''
  const tag = /^[0-9]{1,5}$/.test(raw) ? Number(raw) : NaN
  if (!(tag <= 0xffff))
    throw ApiError.badRequest(
      Codes.invalidRequest,
      `The key tag must be an integer from 0 to 65535 (decimal); got ${JSON.stringify(raw)}`
    )
  return tag
}

async function builtSeq(c: Ctx, zoneId: string): Promise<number> {
  const row = await c.var.zoneDb
    .prepare('SELECT built_seq FROM build_state WHERE zone_id = ?1')
    .bind(zoneId)
    .first<{ built_seq: number }>()
  return row?.built_seq ?? 0
}

async function respond(c: Ctx, zone: ZoneRow, state: DnssecState | null): Promise<Response> {
  const status = reportedStatus(state, await builtSeq(c, zone.id), Math.floor(Date.now() / 1000))
  return ok(c, await dnssecResult(zone.name, state, status))
}

function secret(c: Ctx): string {
  const value = c.env.DNSSEC_KEY_ENCRYPTION_KEY
  if (!value || value.length < MIN_SECRET_LENGTH) {
    throw new ApiError(
      503,
      Codes.dnssecUnavailable,
      `DNSSEC is not available: the DNSSEC_KEY_ENCRYPTION_KEY secret (at least ${MIN_SECRET_LENGTH} characters) is not set on this deployment`
    )
  }
  return value
}

/** A new key whose tag none of `others` has (keys are told apart by tag: removal, RRSIGs). */
async function newKey(
  c: Ctx,
  zone: ZoneRow,
  now: string,
  others: StoredKey[] = []
): Promise<StoredKey> {
  const sealWith = secret(c)
  let key
  try {
    key = await generateSigningKeyAvoiding(others.map((k) => k.tag))
  } catch (e) {
    if (!(e instanceof KeyTagCollision)) throw e
    throw ApiError.badRequest(
      Codes.dnssecKeyTag,
      `No new key with a key tag other than the zone's (${others.map((k) => k.tag).join(', ')}) could be generated; nothing was changed. Retry the request.`
    )
  }
  // Only the sealed form leaves this function; the plain key is dropped here.
  return {
    tag: key.tag,
    public_key: key.publicKey,
    sealed: await sealPrivateKey(key.privatePkcs8, sealWith, zone.id),
    created_on: now,
  }
}

/** The zone's keys plus `key`; a tag two keys would share is refused (400), never stored. */
function withKey(keys: StoredKey[], key: StoredKey): StoredKey[] {
  if (keys.some((k) => k.tag === key.tag))
    throw ApiError.badRequest(
      Codes.dnssecKeyTag,
      `The zone already has a DNSSEC key with tag ${key.tag}: two keys of a zone may not share a tag; nothing was changed.`
    )
  return [...keys, key]
}

/** Writes the state, bumping the zone's version, serial and change sequence; 409 on a race. */
async function save(
  c: Ctx,
  zone: ZoneRow,
  state: Omit<DnssecState, 'seq'> | null
): Promise<DnssecState | null> {
  const now = nowIso()
  const seq = zone.changeSeq + 1
  const stored = state ? { ...state, seq } : null
  const guard = {
    zoneId: zone.id,
    guard: { version: zone.version, changeSeq: zone.changeSeq, serial: zone.serial },
    now,
  }
  try {
    await commitZoneChange(c.var.zoneDb, [
      guardStatement(c.var.zoneDb, guard, 1),
      c.var.zoneDb
        .prepare('UPDATE zones SET dnssec = ?2 WHERE id = ?1')
        .bind(zone.id, stored ? JSON.stringify(stored) : null),
      zoneLogStatement(c.var.zoneDb, zone.id, seq, 'zone', now),
    ])
  } catch (e) {
    if (e instanceof CommitConflict && e.reason === 'zone-changed') {
      throw new ApiError(
        409,
        Codes.conflictRetry,
        'The zone changed while DNSSEC was being changed; nothing was changed. Retry the request.'
      )
    }
    throw e
  }
  announceCommit(c, zone.id, seq, 1)
  return stored
}

function graceSeconds(c: Ctx): number {
  const n = Number(c.env.DNSSEC_DISABLE_GRACE_SECONDS)
  return c.env.DNSSEC_DISABLE_GRACE_SECONDS && Number.isInteger(n) && n >= 0
    ? n
    : DEFAULT_DISABLE_GRACE
}

dnssecApp.get('/', async (c) => {
  const zone = await zoneFor(c, 'dns:read')
  return respond(c, zone, parseDnssecState(zone.dnssec))
})

dnssecApp.patch('/', async (c) => {
  const zone = await zoneFor(c, 'dns:edit')
  const body = await readBody(c, dnssecEditSchema)
  const state = parseDnssecState(zone.dnssec)
  const nowSeconds = Math.floor(Date.now() / 1000)
  const now = nowIso()
  const signing =
    state !== null &&
    state.keys.length > 0 &&
    (state.status === 'active' || (state.until !== undefined && nowSeconds < state.until))
  if (body.status === 'active' && state?.status !== 'active') {
    // Re-enabled within the grace period: the same keys (the DS at the registrar still matches).
    const keys = signing ? state!.keys : [await newKey(c, zone, now)]
    return respond(c, zone, await save(c, zone, { status: 'active', keys, modified_on: now }))
  }
  if (body.status === 'disabled' && state?.status === 'active') {
    return respond(
      c,
      zone,
      await save(c, zone, {
        status: 'disabled',
        keys: state.keys,
        modified_on: now,
        until: nowSeconds + graceSeconds(c),
      })
    )
  }
  return respond(c, zone, state)
})

dnssecApp.delete('/', async (c) => {
  const zone = await zoneFor(c, 'dns:edit')
  if (parseDnssecState(zone.dnssec) !== null) await save(c, zone, null)
  // Cloudflare answers a string result.
  return ok(c, zone.id)
})

dnssecApp.post('/keys', async (c) => {
  const zone = await zoneFor(c, 'dns:edit')
  // The body is judged before the zone's state, as PATCH judges its own.
  await readOptionalBody(c, dnssecKeyCreateSchema)
  const state = parseDnssecState(zone.dnssec)
  if (state?.status !== 'active')
    throw ApiError.badRequest(
      Codes.dnssecNotActive,
      'DNSSEC is not active on this zone: enable it before rolling its key'
    )
  if (state.keys.length >= MAX_KEYS)
    throw ApiError.badRequest(
      Codes.dnssecRollover,
      'A key rollover is already in progress: remove the old key first'
    )
  const now = nowIso()
  return respond(
    c,
    zone,
    await save(c, zone, {
      ...state,
      keys: withKey(state.keys, await newKey(c, zone, now, state.keys)),
      modified_on: now,
    })
  )
})

dnssecApp.delete('/keys/:tag{[^/]+}', async (c) => {
  const zone = await zoneFor(c, 'dns:edit')
  const tag = keyTagParam(c)
  const state = parseDnssecState(zone.dnssec)
  const matching = state?.keys.filter((k) => k.tag === tag) ?? []
  if (!state || matching.length === 0)
    throw new ApiError(404, Codes.dnssecKeyNotFound, `No DNSSEC key with tag ${tag} on this zone`)
  // Keys stored before tags were kept distinct may share one: removing by it would remove both.
  if (matching.length > 1)
    throw ApiError.badRequest(
      Codes.dnssecKeyTag,
      `${matching.length} DNSSEC keys of this zone have tag ${tag}, so it does not name one key; nothing was changed. Disable DNSSEC (DELETE /zones/${zone.id}/dnssec) and enable it again for new keys.`
    )
  if (state.keys.length === 1)
    throw ApiError.badRequest(
      Codes.dnssecRollover,
      "This is the zone's only key: disable DNSSEC instead of removing it"
    )
  const now = nowIso()
  return respond(
    c,
    zone,
    await save(c, zone, {
      ...state,
      keys: state.keys.filter((k) => k.tag !== tag),
      modified_on: now,
    })
  )
})
