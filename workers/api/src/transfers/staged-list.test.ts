import { env } from 'cloudflare:workers'
import { describe, expect, it } from 'vitest'
import { StagedList } from './staged-list.ts'

describe("a transfer's staged list", () => {
  it('reads back the records at given indices, across staged rows and flushes', async () => {
    const list = new StagedList(env.DB, `xfr-test:${crypto.randomUUID()}`, 'z', 'now', 250)
    try {
      const json = (i: number) => JSON.stringify([`id-${i}`, `r-${i}`, null, 300])
      for (let i = 0; i < 1234; i++) await list.addJson(json(i))
      await list.flush()
      const at = [0, 1, 99, 100, 101, 249, 250, 777, 1000, 1233]
      const read: string[] = []
      for await (const r of list.recordsAt(at)) read.push(r)
      expect(read).toEqual(at.map(json))
      const none: string[] = []
      for await (const r of list.recordsAt([])) none.push(r)
      expect(none).toEqual([])
      await expect(async () => {
        for await (const _ of list.recordsAt([1234])) void _
      }).rejects.toThrow('no record 1234')
    } finally {
      await list.discard()
    }
  })
})
