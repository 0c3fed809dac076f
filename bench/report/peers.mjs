/** @module BENCHMARKS.md: changes from submit to visible, ours beside BIND's and PowerDNS's. */
import { fmtMs } from '../lib/stats.mjs'
import { n0, range } from './format.mjs'

export function renderPeers(peers, prop, md) {
  md.push('## Peers: changes from submit to visible', '')
  if (!peers || peers.error || peers.skipped) {
    md.push(
      peers?.skipped
        ? `Skipped: ${peers.skipped}. Install them (Debian: \`apt-get install bind9 bind9-dnsutils pdns-server pdns-backend-sqlite3 dnsdist sqlite3\`) and run \`pnpm bench --peers\`.`
        : peers?.error
          ? `Failed: ${peers.error}`
          : 'Not run (`pnpm bench --peers`).',
      ''
    )
    return
  }
  md.push(
    `Same zones (${n0(peers.zones.small)} and ${n0(peers.zones.large)} A records plus a wildcard), same machine, same run. BIND 9.18: zone files, dynamic updates with \`nsupdate\` (one process per change; 10,000 adds as 10 UPDATE messages of 1,000 in one nsupdate run), DoH on its plain-HTTP listener. PowerDNS 4.7: gsqlite3 backend, HTTP API \`PATCH\` (one rrset REPLACE per name; 10,000 in one PATCH), dnsdist 1.7 in front for DoH. Ours: one API call per one-record change, one batch call for 10,000. **Visible** = the name answers through each system's own DoH endpoint (polled back to back); **applied** = the change request returned.`,
    ''
  )
  md.push(
    '| change | zone | ours (API → D1 → DO → KV → DoH) | BIND 9.18 (nsupdate) | PowerDNS 4.7 (PATCH) |',
    '|---|---:|---:|---:|---:|'
  )
  for (const kind of ['small', 'large']) {
    const ours = prop?.zones?.[kind]
    md.push(
      `| one record, submit → visible | ${n0(peers.zones[kind])} | ${range(ours?.one?.submit)} | ${range(peers.bind.changes[kind]?.one)} | ${range(peers.pdns.changes[kind]?.one)} |`
    )
  }
  for (const kind of ['small', 'large']) {
    const ours = prop?.zones?.[kind]?.bulk
    md.push(
      `| 10,000 creates, submit → visible | ${n0(peers.zones[kind])} | ${ours ? range(ours.submit, fmtMs) : '–'} | ${range(peers.bind.changes[kind]?.bulk.submit, fmtMs)} | ${range(peers.pdns.changes[kind]?.bulk.submit, fmtMs)} |`
    )
    md.push(
      `| 10,000 creates, applied (request returned) | ${n0(peers.zones[kind])} | ${ours ? `${range(ours.response, fmtMs)} (handler ${fmtMs(ours.server.median)})` : '–'} | ${range(peers.bind.changes[kind]?.bulk.applied, fmtMs)} | ${range(peers.pdns.changes[kind]?.bulk.applied, fmtMs)} |`
    )
  }
  md.push(
    '',
    "The peers serve from the store they write (BIND's in-memory zone, PowerDNS's SQLite), so a change is visible as soon as it is applied; ours is visible once the builder has written KV. BIND's one-record figure includes starting `nsupdate`. Throughput and start-up rows for the peers sit in the DoH and start-up tables above.",
    ''
  )
}
