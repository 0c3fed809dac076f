/**
 * @module One check's pull and commit from one primary of a secondary zone (SecondaryZone runs the
 * checks): its SOA over TCP, then IXFR or AXFR into a staged transfer committed as one change,
 * retried when a settings change moved the zone's version meanwhile.
 */
import { serialAfter, soaSerial } from '@edgedns/zone-transfer'
import { builderStub, CommitConflict, type ZoneGuard } from '../commit/zone-change.ts'
import { confirmCopy, COPY_COLUMNS, copySource, heldSkipped, type CopyRecord } from './held-copy.ts'
import type { IncomingConfig, Primary } from './incoming-config.ts'
import { primarySoa, pullZone, type Connect } from './tcp-transfer.ts'
import { TransferStage } from './transfer-commit.ts'
import { axfrMayWork } from './transfer-errors.ts'

export interface CheckResult {
  /** transferred: a new version was committed; current: nothing newer; failed: no primary answered. */
  status: 'transferred' | 'current' | 'failed' | 'not-secondary'
  serial?: number
  kind?: 'axfr' | 'ixfr'
  error?: string
}

/**
 * How a check pulls: `check` asks the primary's SOA and, when it is newer than the copy, IXFR (or
 * AXFR); `axfr` pulls the zone whole whatever its serial (`force_axfr`, a copy from another
 * primary); `remap` pulls it whole unless the primary's serial is before the copy's (a copy that
 * lacks what an earlier record mapping left out: a primary behind the copy must not roll it back).
 */
export type PullMode = 'check' | 'axfr' | 'remap'

/** Commit attempts when other writers (settings changes) keep moving the zone's version. */
const COMMIT_ATTEMPTS = 4

export interface ZoneRowSoa extends CopyRecord {
  secondary_expired: number
  version: number
  change_seq: number
  soa_mname: string
  soa_rname: string
  soa_refresh: number
  soa_retry: number
  soa_expire: number
  soa_minimum: number
}

/** The zone while it is a live secondary zone (null once it is deleted or another type). */
export async function zoneRow(db: D1Database, zoneId: string): Promise<ZoneRowSoa | null> {
  return db
    .prepare(
      `SELECT secondary_expired, version, change_seq, serial, soa_mname, soa_rname, soa_refresh, soa_retry, soa_expire, soa_minimum,
         ${COPY_COLUMNS} FROM zones WHERE id = ?1 AND status != 'deleted' AND type = 'secondary'`
    )
    .bind(zoneId)
    .first<ZoneRowSoa>()
}

export const soaRdata = (z: ZoneRowSoa, serial = z.serial): string =>
  `${z.soa_mname}. ${z.soa_rname}. ${serial} ${z.soa_refresh} ${z.soa_retry} ${z.soa_expire} ${z.soa_minimum}`

export const guardOf = (z: ZoneRowSoa): ZoneGuard => ({
  version: z.version,
  changeSeq: z.change_seq,
  serial: z.serial,
})

/**
 * A check's result; after a transfer, with what follows it still under way (the builder's first
 * step, then the discard of the staged rows): `finishing`.
 */
type Attempt = CheckResult & { finishing?: Promise<void> }

/**
 * Pulls from one primary and commits; 'current' when the primary has nothing newer. An IXFR that
 * fails is asked again once, as an AXFR (`axfrMayWork`). `connectTo`: how the primary is reached
 * (tests give a fake).
 */
export async function transferFrom(
  env: Env,
  cfg: IncomingConfig,
  primary: Primary,
  mode: PullMode,
  connectTo?: Connect
): Promise<Attempt> {
  const db = env.DB
  const soa = await primarySoa(primary, cfg.zoneName, connectTo)
  const theirs = soaSerial(soa.data)
  const newer = cfg.soaSerial === null || serialAfter(theirs, cfg.soaSerial)
  const whole = mode === 'axfr' || (mode === 'remap' && (newer || theirs === cfg.soaSerial))
  if (!whole && !newer) return confirmCopy(db, cfg.zoneId, cfg.soaSerial!)
  let ixfr = !whole && primary.ixfr && cfg.soaSerial !== null
  for (;;) {
    const zone = await zoneRow(db, cfg.zoneId)
    if (!zone) return { status: 'not-secondary' }
    const { zoneId, zoneName } = cfg
    const stage = new TransferStage(db, {
      zoneId,
      zoneName,
      source: copySource(primary),
      noCopy: cfg.soaSerial === null,
    })
    const discard = () =>
      stage
        .discard()
        .catch((e: unknown) =>
          console.warn('transfer: staged rows left for the cron', cfg.zoneId, e)
        )
    let finishing: Promise<void> | null = null
    try {
      // From the serial of the copy we hold: the primary's serial of our last transfer.
      const held = cfg.soaSerial
      const from = ixfr && held !== null ? { rdata: soaRdata(zone, held), serial: held } : null
      const pullStart = Date.now()
      const outcome = await pullZone(primary, cfg.zoneName, from, stage.sink, connectTo)
      const pullMs = Date.now() - pullStart
      if (outcome.kind === 'current') return confirmCopy(db, cfg.zoneId, held ?? zone.serial)
      const commitStart = Date.now()
      const replace = outcome.kind === 'axfr'
      let [guard, skipped] = [guardOf(zone), heldSkipped(zone)]
      let committed: number
      for (let attempt = 1; ; attempt++) {
        try {
          committed = await stage.commit({ guard, soa: outcome.soa, replace, skipped })
          break
        } catch (e) {
          if (!(e instanceof CommitConflict && e.reason === 'zone-changed')) throw e
          if (attempt >= COMMIT_ATTEMPTS) throw e
          const again = await zoneRow(db, cfg.zoneId)
          if (!again) return { status: 'not-secondary' }
          // An IXFR applies to the version it was asked from; any other change means a new pull.
          if (outcome.kind === 'ixfr' && again.serial !== zone.serial) throw e
          ;[guard, skipped] = [guardOf(again), heldSkipped(again)]
        }
      }
      // What a transfer was and where its time went (bench tools read this line).
      console.log(
        'secondary zone transfer committed',
        JSON.stringify({
          zoneId: cfg.zoneId,
          kind: outcome.kind,
          applied: stage.applied,
          records: outcome.records,
          skipped: stage.skipped.total,
          pullMs,
          commitMs: Date.now() - commitStart,
        })
      )
      // The builder may also learn of it from the propagation sweep; telling it now is faster.
      // It replies once its first step is over (an IXFR's names, an AXFR's first pages); the
      // check records its result meanwhile, and the staged rows are discarded after that step,
      // so their deletes do not compete with the build's reads.
      const building = builderStub(env, cfg.zoneId)
        .notify(cfg.zoneId, committed)
        .catch((e: unknown) => console.warn('builder notification lost', cfg.zoneId, e))
      finishing = building.then(discard)
      return {
        status: 'transferred',
        serial: soaSerial(outcome.soa.data),
        kind: outcome.kind,
        finishing,
      }
    } catch (e) {
      if (!ixfr || !axfrMayWork(e)) throw e
      console.warn('secondary zone IXFR failed; asking AXFR', cfg.zoneId, primary.ip, String(e))
      ixfr = false
      continue
    } finally {
      if (finishing === null) await discard()
    }
  }
}
