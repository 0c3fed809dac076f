/**
 * @module The benchmark zones for the peers: RFC 1035 zone files (BIND) and SQL rows for the
 * PowerDNS gsqlite3 schema, from the same records our API is seeded with (bench/lib/fixtures.mjs).
 */
import { createWriteStream } from 'node:fs'
import { once } from 'node:events'
import { zoneRecords } from '../lib/fixtures.mjs'

const SOA = (zone) => `ns1.${zone}. hostmaster.${zone}. 1 3600 600 86400 300`

/** Writes `zone`'s file with `count` records; resolves when flushed. */
export async function writeZoneFile(file, zone, count) {
  const out = createWriteStream(file)
  const write = async (line) => {
    if (!out.write(line)) await once(out, 'drain')
  }
  await write(
    `$ORIGIN ${zone}.\n$TTL 300\n@ IN SOA ${SOA(zone)}\n@ IN NS ns1.${zone}.\nns1 IN A 192.0.2.53\n`
  )
  for (const r of zoneRecords(count)) await write(`${r.name} ${r.ttl} IN ${r.type} ${r.content}\n`)
  out.end()
  await once(out, 'finish')
}

const q = (s) => `'${s.replace(/'/g, "''")}'`

/** SQL inserting `zone` (domain id `id`) into the gsqlite3 schema, in one transaction. */
export async function writeZoneSql(file, id, zone, count) {
  const out = createWriteStream(file)
  const write = async (line) => {
    if (!out.write(line)) await once(out, 'drain')
  }
  const row = (name, type, content) => `(${id},${q(name)},'${type}',${q(content)},300,0,1)`
  await write(
    `BEGIN;\nINSERT INTO domains (id, name, type) VALUES (${id}, ${q(zone)}, 'NATIVE');\n`
  )
  await write(
    `INSERT INTO records (domain_id,name,type,content,ttl,disabled,auth) VALUES ${row(zone, 'SOA', SOA(zone).replace(/\.(?= |$)/g, ''))},${row(zone, 'NS', `ns1.${zone}`)},${row(`ns1.${zone}`, 'A', '192.0.2.53')};\n`
  )
  let batch = []
  for (const r of zoneRecords(count)) {
    batch.push(row(`${r.name}.${zone}`, r.type, r.content))
    if (batch.length === 1000) {
      await write(
        `INSERT INTO records (domain_id,name,type,content,ttl,disabled,auth) VALUES ${batch.join(',')};\n`
      )
      batch = []
    }
  }
  if (batch.length > 0)
    await write(
      `INSERT INTO records (domain_id,name,type,content,ttl,disabled,auth) VALUES ${batch.join(',')};\n`
    )
  await write('COMMIT;\n')
  out.end()
  await once(out, 'finish')
}
