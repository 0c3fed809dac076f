/**
 * @module Command-line parsing for the edgedns CLI: positionals and --flags (--k v, --k=v, -o v).
 */

export interface Args {
  command: string | undefined
  positionals: string[]
  flags: Record<string, string | true>
}

const WITH_VALUE = new Set(['chunk', 'out', 'o', 'url', 'token', 'timeout'])

export function parseArgs(argv: string[]): Args {
  const positionals: string[] = []
  const flags: Record<string, string | true> = {}
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!
    const m = /^--?([A-Za-z][\w-]*)(?:=(.*))?$/.exec(a)
    if (!m) {
      positionals.push(a)
      continue
    }
    const key = m[1]!
    if (m[2] !== undefined) flags[key] = m[2]
    else if (WITH_VALUE.has(key) && i + 1 < argv.length) flags[key] = argv[++i]!
    else flags[key] = true
  }
  return { command: positionals.shift(), positionals, flags }
}

export const USAGE = `usage: edgedns <command> [options]

  import <zone> <file>        import a BIND zone file (one atomic batch)   [--proxied] [--wait]
  export <zone>               print the zone as a BIND zone file           [-o file]
  apply <zone> <batch.json>   apply {deletes,patches,puts,posts}           [--chunk N|auto] [--wait]
  query <name> [type]         DNS-over-HTTPS query (wire format)           [--json]
  transfer status <zone>      a secondary zone's copy and checks, or a     [--json]
                              primary zone's outgoing transfers
  transfer axfr <zone>        pull a secondary zone whole from its primary now
  transfer notify <zone>      send a primary zone's secondaries a NOTIFY now

<zone> is a zone id or a zone name. Environment: EDGEDNS_URL (default http://127.0.0.1:8787),
EDGEDNS_TOKEN (API token). --url and --token override them.`
