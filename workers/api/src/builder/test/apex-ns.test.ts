/**
 * @module The apex NS set the edge serves: the zone's default name servers (vanity when set, else
 * those assigned) with the zone's NS TTL while it stores no apex NS record; its stored set once it
 * does, with the set's smallest TTL; as transfers and the export give it.
 */
import { describe, expect, it } from 'vitest'
import { api, createZone, kvMeta, settle } from './helpers.ts'

describe('the apex NS set as built', () => {
  it('is the default name servers with ns_ttl, then the stored records alone', async () => {
    const z = await createZone('apex-ns')
    const apexNs = async () => {
      await settle(z.id)
      return (await kvMeta(z.name))!.apex.sets.NS
    }
    const own = (await api('GET', `/zones/${z.id}`)).body.result.name_servers as string[]
    expect(await apexNs()).toEqual({ ttl: 86400, rdata: own.map((ns) => `${ns}.`) })
    const vanity = [`ns1.${z.name}`, `ns2.${z.name}`]
    expect((await api('PATCH', `/zones/${z.id}`, { vanity_name_servers: vanity })).status).toBe(200)
    expect(await apexNs()).toEqual({ ttl: 86400, rdata: vanity.map((ns) => `${ns}.`) })
    const stored = { type: 'NS', name: z.name, content: 'ns.other.example', ttl: 3600 }
    expect((await api('POST', `/zones/${z.id}/dns_records`, stored)).status).toBe(200)
    expect(await apexNs()).toEqual({ ttl: 3600, rdata: ['ns.other.example.'] })
  })
})
