/**
 * @module The IXFR tests' transfers: records as a primary sends them, and a transfer received and
 * committed through a TransferStage, as a secondary zone's check does.
 */
import { env } from 'cloudflare:workers'
import type { MessageRR } from '@edgedns/dns-wire'
import type { ZoneGuard } from '../commit/zone-change.ts'
import { COPY_COLUMNS, heldSkipped, type CopyRecord } from './held-copy.ts'
import type { TsigKey } from '@edgedns/zone-transfer'
import type { IncomingConfig, Primary } from './incoming-config.ts'
import { TransferStage } from './transfer-commit.ts'

/** Rows per statement: small, so a few hundred records span several statements. */
export const ROWS = 50

export async function zoneRow(zoneId: string) {
  return (await env.DB.prepare('SELECT version, change_seq, serial FROM zones WHERE id = ?1')
    .bind(zoneId)
    .first<{ version: number; change_seq: number; serial: number }>())!
}

export async function guardOf(zoneId: string): Promise<ZoneGuard> {
  const row = await zoneRow(zoneId)
  return { version: row.version, changeSeq: row.change_seq, serial: row.serial }
}

export const rr = (zone: string, label: string, type: string, typeCode: number, data: string) =>
  ({
    name: label === '@' ? `${zone}.` : `${label}.${zone}.`,
    type,
    typeCode,
    class: 1,
    ttl: 300,
    data,
  }) satisfies MessageRR

export const a = (zone: string, i: number): MessageRR =>
  rr(zone, `r-${i}`, 'A', 1, `10.0.${(i >> 8) & 255}.${i & 255}`)

export const soa = (zone: string, serial: number): MessageRR => ({
  ...rr(
    zone,
    '@',
    'SOA',
    6,
    `ns.primary.test. hostmaster.primary.test. ${serial} 3600 600 86400 300`
  ),
  name: `${zone}.`,
  ttl: 3600,
})

/** The primary's NS record at the apex (every zone has one: zone-shape.ts). */
export const apexNs = (zone: string): MessageRR => rr(zone, '@', 'NS', 2, 'ns.primary.test.')

/** An AXFR's records with the apex NS record first when they have none. */
export const withApexNs = (zone: string, records: MessageRR[]): MessageRR[] =>
  records.some((r) => r.typeCode === 2 && r.name === `${zone}.`)
    ? records
    : [apexNs(zone), ...records]

export type Zone = { id: string; name: string }
export type Step = ['add' | 'delete', MessageRR]

/**
 * Receives a transfer of `steps` and commits it (`replace`: an AXFR) with the primary's SOA
 * `primarySoa`; the change sequence it committed up to.
 */
export async function transfer(
  zone: Zone,
  steps: Step[],
  serial: number,
  replace: boolean,
  primarySoa = soa(zone.name, serial)
): Promise<number> {
  const stage = new TransferStage(env.DB, { zoneId: zone.id, zoneName: zone.name }, ROWS)
  try {
    const whole = replace
      ? withApexNs(
          zone.name,
          steps.map(([, r]) => r)
        )
      : null
    for (const [op, r] of whole ? whole.map((r) => ['add', r] as Step) : steps)
      await stage.sink(op, r)
    const copy = (await env.DB.prepare(`SELECT ${COPY_COLUMNS}, serial FROM zones WHERE id = ?1`)
      .bind(zone.id)
      .first<CopyRecord>())!
    return await stage.commit({
      guard: await guardOf(zone.id),
      soa: primarySoa,
      replace,
      skipped: heldSkipped(copy),
    })
  } finally {
    await stage.discard()
  }
}

/** A primary at 192.0.2.53 with IXFR on, and the incoming config of `zone` naming only it. */
export function ixfrPrimaryOf(
  zone: Zone,
  key: TsigKey | null = null
): { primary: Primary; cfg: IncomingConfig } {
  const primary: Primary = { id: 'p', ip: '192.0.2.53', port: 53, ixfr: true, key }
  const cfg: IncomingConfig = {
    zoneId: zone.id,
    zoneName: zone.name,
    accountId: 'a',
    type: 'secondary',
    autoRefreshSeconds: 86400,
    soaSerial: null,
    primaries: [primary],
  }
  return { primary, cfg }
}
