/**
 * @module ZoneBuilder Durable Object: one per zone, the single writer of the zone's KV keys.
 * (Skeleton: records the committed sequence it was told about; the build pipeline lands with the propagation issue.)
 */
import { DurableObject } from 'cloudflare:workers'

export class ZoneBuilder extends DurableObject<Env> {
  async notify(zoneId: string, seq: number): Promise<void> {
    const known = (await this.ctx.storage.get<number>('notified')) ?? 0
    if (seq > known) await this.ctx.storage.put({ notified: seq, zoneId })
  }
}
