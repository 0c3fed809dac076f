/** @module BENCHMARKS.md: the targets table (issues' goals beside the measured figures) and notes. */
import { localBuilderSettings } from '../../scripts/lib/dev-vars.mjs'
import { n0 } from './format.mjs'

export function renderTargets(targets, md) {
  if (targets.length === 0) return
  md.push('## Targets', '')
  md.push(
    'From the issues ("Batch at scale", "Propagation", "DNS-over-HTTPS worker", "Freshness at platform scale", "Production, second round"), measured in this run. "Not met" is reported as measured; the sections below say what bounds each figure.',
    ''
  )
  md.push('| area | target | measured | verdict |', '|---|---|---|---|')
  for (const [area, target, measured, verdict] of targets)
    md.push(`| ${area} | ${target} | ${measured} | ${verdict} |`)
  md.push('')
}

export function renderNotes(results, md) {
  const m = results.machine
  const S = results.sections
  md.push('## How this run was made', '')
  md.push(
    `- Command: \`pnpm bench${m.mode === 'quick' ? ' --quick' : ''}${S.peers ? ' --peers' : ''}\`; total ${m.seconds ? `${Math.round(m.seconds / 60)} min` : '–'}. Per section: ${Object.entries(
      S
    )
      .map(([id, r]) => `${id} ${r?.seconds ?? '–'} s`)
      .join(', ')}.`
  )
  md.push(
    `- Load average (1/5/15 min) at the start: ${m.loadStart?.map((x) => x.toFixed(2)).join(' / ') ?? '–'}; at the end: ${m.loadEnd?.map((x) => x.toFixed(2)).join(' / ') ?? '–'}. The machine has 2 cores shared by the runtime under test, the load generator and, for the peers, the peer servers; other work on the machine shows up here.`
  )
  const large = S.propagation?.zones?.large?.size ?? S.startup?.large?.size
  if (large)
    md.push(
      `- Sizes: the small zone has 1,000 records, the large zone ${n0(large)} (full runs 1,000,000, the issues' figure; quick runs 10,000; \`BENCH_LARGE\` overrides). The large zone is seeded through the API in batches of 100,000 and built by the pipeline before any section measures it; on this machine that takes about 10 minutes for 1,000,000 records (Miniflare's KV simulator stores each value as a file).`
    )
  md.push(
    '- The batch section runs on a stack of its own, closed when it ends, so its builder backlog cannot load the later sections; the other sections share one stack and its zones. Quick runs (`--quick`) use smaller sizes (batch sizes up to 1,000, a 10,000-record large zone, one run per DoH figure) and are a smoke test, not the published figures.'
  )
  md.push(
    `- Builder pacing \`KV_KEY_WRITE_INTERVAL_MS=0\` in the bench stack (the pipeline\'s own cost)${S.propagation?.paced ? `; the paced propagation run uses a second, small stack with \`KV_KEY_WRITE_INTERVAL_MS=${S.propagation.paced.kvKeyWriteIntervalMs}\`, closed after it` : ''}. The DoH worker runs with \`DOH_STATS=1\` (its \`/stats\` counters), the local read-path settings of \`.dev.vars\` (${Object.entries(
      S.doh?.settings ?? { REVALIDATE_MS: '5' }
    )
      .map(([k, v]) => `\`${k}=${v}\``)
      .join(
        ', '
      )}; deployed defaults in workers/doh/src/env.ts) and \`CACHE_MB\` 64. The builder runs with the local settings of \`.dev.vars\` (${Object.entries(
      localBuilderSettings()
    )
      .map(([k, v]) => `\`${k}=${v}\``)
      .join(
        ', '
      )}; deployed: no yield, the builder has a thread of its own there, and a ten-minute grace before superseded keys are deleted).`
  )
  md.push(
    '- Peers need the Debian packages `bind9 bind9-dnsutils pdns-server pdns-backend-sqlite3 dnsdist sqlite3`; `pnpm bench --peers` installs nothing and skips them when missing. Every server binds 127.0.0.1 on free high ports in a temp directory and is stopped after.'
  )
  md.push('')
}
