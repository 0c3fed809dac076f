/**
 * @module A NOTIFY (RFC 1996) relayed by the DNS front, with the address it came from: accepted
 * only for a live secondary zone with incoming settings, only from the address of one of its
 * primaries, and only TSIG-signed with that primary's key when it has one. An accepted NOTIFY
 * makes the zone's SecondaryZone object check its primary at once. Returns the answer to send.
 */
import { answerNotify } from '@edgedns/zone-transfer'
import { envForZone, liveZoneIdNamed } from '../shards/zone-env.ts'
import { readIncoming } from './incoming-config.ts'
import { secondaryStub } from './secondary-stub.ts'

/** The same address in one spelling: lowercase, IPv4-mapped IPv6 as IPv4. */
function sameAddress(a: string, b: string): boolean {
  const norm = (s: string) =>
    s
      .trim()
      .toLowerCase()
      .replace(/^::ffff:(\d+\.\d+\.\d+\.\d+)$/, '$1')
  return norm(a) === norm(b)
}

export async function acceptNotify(
  env: Env,
  message: Uint8Array,
  clientIp: string
): Promise<Uint8Array | null> {
  let zoneId: string | null = null
  const out = await answerNotify(
    message,
    async (zone) => {
      zoneId = await liveZoneIdNamed(env, zone)
      if (!zoneId) return null
      const cfg = await readIncoming((await envForZone(env, zoneId)).DB, zoneId)
      if (!cfg || cfg.type !== 'secondary') return null
      const primary = cfg.primaries.find((p) => sameAddress(p.ip, clientIp))
      return primary ? { key: primary.key } : null
    },
    Math.floor(Date.now() / 1000)
  )
  if (out.accepted && zoneId) await secondaryStub(env, zoneId).notify(zoneId)
  return out.response
}
