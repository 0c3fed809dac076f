/**
 * @module The batch handler's JavaScript alone, under Node (not part of `pnpm bench`): parses,
 * loads, plans and builds the statements of 10,000-change batches through `applyBatch`, with a D1
 * stand-in that answers the load with the batch's records at once and the write with nothing.
 * Prints, per phase, the minimum and median wall time and the process CPU time per batch.
 * Pass a checkout's root to compare two commits; add `--cpu-prof` to Node for a profile.
 * usage: node --experimental-transform-types bench/tools/batch-cpu.mjs [root=.] [reps=23] [bench|mixed]
 *   bench: the `pnpm bench` mixed batch (a third each deletes, content patches, posts of A records)
 *   mixed: the same split over A, AAAA, CNAME, MX, TXT and SRV records with comments, tags, proxied
 */
import path from 'node:path'

const [rootArg = '.', repsArg = '23', shape = 'bench'] = process.argv.slice(2)
const root = path.resolve(rootArg)
const reps = Number(repsArg)
const api = `${root}/workers/api/src`
const { applyBatch } = await import(`${api}/batch/apply.ts`)
const { batchRequestSchema } = await import(`${api}/batch/request.ts`)
const { parseWith } = await import(`${api}/http/body.ts`)
const { buildRecord } = await import(`${api}/records/input.ts`)
const { RECORD_COLUMNS, toApi, toRowValues } = await import(`${api}/records/model.ts`)

const zoneName = 'profile.example'
const zoneId = 'a'.repeat(32)
const N = 10_000
const third = Math.floor(N / 3)
const id = (i) => (0x1000000 + i).toString(16).padStart(32, '0')
const ipv4 = (i) => `10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}`
const kinds =
  shape === 'bench'
    ? [(i) => ({ type: 'A', name: `g-${i}`, content: ipv4(i), ttl: 300 })]
    : [
        (i) => ({
          type: 'A',
          name: `Host-${i}.${zoneName}`,
          content: ipv4(i),
          ttl: 300,
          proxied: i % 4 === 0,
        }),
        (i) => ({
          type: 'AAAA',
          name: `v6-${i}`,
          content: `2001:db8::${(i & 0xffff).toString(16)}`,
        }),
        (i) => ({
          type: 'CNAME',
          name: `www-${i}`,
          content: `target-${i}.example.net`,
          comment: 'web',
        }),
        (i) => ({
          type: 'MX',
          name: `mail-${i}`,
          content: `mx${i}.example.net`,
          priority: 10,
          tags: ['env:prod'],
        }),
        (i) => ({
          type: 'TXT',
          name: `_acme-${i}`,
          content: `"v=spf1 include:_spf.example.net ~all ${i}"`,
        }),
        (i) => ({
          type: 'SRV',
          name: `_sip._tcp.s${i}`,
          data: { priority: 10, weight: 5, port: 5060, target: `sip${i}.example.net` },
        }),
      ]
const record = (i) => kinds[i % kinds.length](i)

// The records the deletes and patches refer to, as D1 rows.
const now = '2026-01-01T00:00:00.000Z'
const rows = Array.from({ length: 2 * third }, (_, i) => {
  const values = toRowValues(buildRecord(record(i), { zoneId, zoneName, now }, id(i)))
  return Object.fromEntries(RECORD_COLUMNS.map((c, k) => [c, values[k]]))
})

function request(g) {
  return {
    deletes: Array.from({ length: third }, (_, i) => ({ id: id(i) })),
    patches: Array.from({ length: third }, (_, i) =>
      record(third + i).type === 'A'
        ? { id: id(third + i), content: `172.16.${(i >> 8) & 255}.${i & 255}` }
        : { id: id(third + i), ttl: 600 + g }
    ),
    posts: Array.from({ length: N - 2 * third }, (_, i) => record(100_000 * (g + 1) + i)),
  }
}

const d1 = {
  prepare: (sql) => ({ bind: (...args) => ({ sql, args }) }),
  async batch(stmts) {
    const load = stmts[0].sql.startsWith('SELECT version')
    return stmts.map((s, k) => ({
      results: !load
        ? []
        : k === 0
          ? [{ version: 1, change_seq: 5, serial: 1 }]
          : k === 1
            ? rows
            : [],
    }))
  },
}

const decoder = new TextDecoder('utf-8', { fatal: true })
const times = { parse: [], load: [], plan: [], write: [], total: [], cpu: [], respond: [] }
for (let r = 0; r < reps; r++) {
  const bytes = new TextEncoder().encode(JSON.stringify(request(r)))
  const c0 = process.cpuUsage()
  const t0 = performance.now()
  const body = parseWith(batchRequestSchema, JSON.parse(decoder.decode(bytes)))
  const t1 = performance.now()
  const applied = await applyBatch(d1, { zoneId, zoneName, tokenId: 't' }, body, true)
  const t2 = performance.now()
  const cpu = process.cpuUsage(c0)
  const res = applied.plan.result
  JSON.stringify({
    deletes: res.deletes.map(toApi),
    patches: res.patches.map(toApi),
    posts: res.posts.map(toApi),
  })
  const t3 = performance.now()
  if (applied.plan.changes.length !== N)
    throw new Error(`${applied.plan.changes.length} changes, expected ${N}`)
  times.parse.push(t1 - t0)
  times.load.push(applied.timings.load)
  times.plan.push(applied.timings.plan)
  times.write.push(applied.timings.write)
  times.total.push(t2 - t0)
  times.cpu.push((cpu.user + cpu.system) / 1000)
  times.respond.push(t3 - t2)
}
// The first runs warm the JIT up.
const warm = (xs) => xs.slice(Math.min(3, xs.length - 1))
const sorted = (xs) => [...xs].sort((a, b) => a - b)
const summary = Object.fromEntries(
  Object.entries(times).map(([k, xs]) => {
    const s = sorted(warm(xs))
    return [k, `${s[0].toFixed(1)} / ${s[Math.floor(s.length / 2)].toFixed(1)} ms`]
  })
)
console.log(JSON.stringify({ root, shape, 'min / median': summary }))
