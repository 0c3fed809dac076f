/**
 * @module A NOTIFY (RFC 1996) relayed by the DNS front, with the address it came from: accepted
 * only for a live secondary zone with incoming settings, only from the address of one of its
 * primaries, and only TSIG-signed with that primary's key when it has one. An accepted NOTIFY
 * makes the zone's SecondaryZone object check its primary, at once unless a check a NOTIFY asked
 * for started shortly before (secondary-zone.ts spaces them), or later when the check it asks for
 * is past its account's budget (secondary-zone.ts `NOTIFY_DEFER_MS`); it is answered either way.
 * `mayRelay` says whether the relaying token covers the zone (refused as if unknown otherwise).
 * Returns the answer to send.
 */
import { answerNotify } from '@edgedns/zone-transfer'
import { envForZone, liveZoneIdNamed } from '../shards/zone-env.ts'
import { sameAddress } from './addresses.ts'
import { readIncoming } from './incoming-config.ts'
import { secondaryStub } from './secondary-stub.ts'

export async function acceptNotify(
  env: Env,
  message: Uint8Array,
  clientIp: string,
  mayRelay: (scope: { accountId: string; zoneId: string }) => boolean
): Promise<Uint8Array | null> {
  let zoneId: string | null = null
  let accountId = ''
  const out = await answerNotify(
    message,
    async (zone) => {
      zoneId = await liveZoneIdNamed(env, zone)
      if (!zoneId) return null
      const cfg = await readIncoming((await envForZone(env, zoneId)).DB, zoneId)
      if (
        !cfg ||
        cfg.type !== 'secondary' ||
        !mayRelay({ accountId: cfg.accountId, zoneId: cfg.zoneId })
      )
        return null
      accountId = cfg.accountId
      const primary = cfg.primaries.find((p) => sameAddress(p.ip, clientIp))
      return primary ? { key: primary.key } : null
    },
    Math.floor(Date.now() / 1000)
  )
  if (out.accepted && zoneId) await secondaryStub(env, zoneId).notify(zoneId, accountId)
  return out.response
}
