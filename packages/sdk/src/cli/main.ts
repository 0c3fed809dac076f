/**
 * @module The edgedns CLI: import, export, apply, query, transfer, on top of the SDK. Node-only (files,
 * process); the SDK itself stays runtime-neutral.
 */
import { readFile, writeFile } from 'node:fs/promises'
import { EdgeDns } from '../client.ts'
import { EdgeDnsError } from '../errors.ts'
import type { BatchRequest } from '../types.ts'
import { parseArgs, USAGE, type Args } from './args.ts'
import { ProgressBar } from './progress.ts'
import { transferStatus } from './transfer.ts'

export interface Io {
  env: Record<string, string | undefined>
  stdout: { write(s: string): unknown }
  stderr: { isTTY?: boolean; columns?: number; write(s: string): unknown }
}

const ZONE_ID = /^[0-9a-f]{32}$/

async function zoneId(client: EdgeDns, zone: string | undefined): Promise<string> {
  if (!zone) throw new UsageError('missing <zone>')
  if (ZONE_ID.test(zone)) return zone
  const z = await client.zones.byName(zone)
  if (!z) throw new UsageError(`no zone named ${zone}`)
  return z.id
}

class UsageError extends Error {}

async function waitIf(
  client: EdgeDns,
  args: Args,
  id: string,
  seq: number | undefined,
  io: Io
): Promise<void> {
  if (!args.flags.wait || seq === undefined) return
  const timeoutMs = Number(args.flags.timeout ?? 60) * 1000
  const p = await client.waitForPropagation(id, seq, { timeoutMs })
  io.stderr.write(`propagated: built_seq ${p.built_seq}\n`)
}

async function run(args: Args, client: EdgeDns, io: Io): Promise<void> {
  const [a, b] = args.positionals
  switch (args.command) {
    case 'import': {
      if (!b) throw new UsageError('usage: edgedns import <zone> <file>')
      const id = await zoneId(client, a)
      const text = await readFile(b, 'utf8')
      const bar = new ProgressBar(io.stderr, `import ${b}`)
      const lines = text.split('\n').length
      const stop = bar.spin(
        () => `${(text.length / 1e6).toFixed(1)} MB, ${lines} lines, applying as one batch`
      )
      try {
        const res = await client.records.import(id, text, { proxied: args.flags.proxied === true })
        stop()
        bar.done(
          `imported: ${res.recs_added} added of ${res.total_records_parsed} parsed (change seq ${res.changeSeq})`
        )
        for (const m of res.messages) io.stderr.write(`  ${m}\n`)
        io.stdout.write(
          `${JSON.stringify({ recs_added: res.recs_added, total_records_parsed: res.total_records_parsed, change_seq: res.changeSeq })}\n`
        )
        await waitIf(client, args, id, res.changeSeq, io)
      } finally {
        stop()
      }
      return
    }
    case 'export': {
      const text = await client.records.export(await zoneId(client, a))
      const out = args.flags.out ?? args.flags.o
      if (typeof out === 'string') await writeFile(out, text)
      else io.stdout.write(text)
      return
    }
    case 'apply': {
      if (!b) throw new UsageError('usage: edgedns apply <zone> <batch.json>')
      const id = await zoneId(client, a)
      const req = JSON.parse(await readFile(b, 'utf8')) as BatchRequest
      const chunkFlag = args.flags.chunk
      const chunk =
        chunkFlag === undefined
          ? false
          : chunkFlag === true || chunkFlag === 'auto'
            ? true
            : Number(chunkFlag)
      const bar = new ProgressBar(io.stderr, `apply ${b}`)
      const res = await client.records.batch(id, req, {
        chunk,
        onProgress: (p) => bar.update(p.done, p.total, `chunk ${p.chunk}/${p.chunks}`),
      })
      const counts = Object.fromEntries(
        Object.entries(res).map(([k, v]) => [k, (v as unknown[]).length])
      )
      bar.done(`applied: ${JSON.stringify(counts)} (change seq ${res.changeSeq})`)
      io.stdout.write(`${JSON.stringify({ ...counts, change_seq: res.changeSeq })}\n`)
      await waitIf(client, args, id, res.changeSeq, io)
      return
    }
    case 'query': {
      if (!a) throw new UsageError('usage: edgedns query <name> [type]')
      const m = await client.resolve(a, b ?? 'A')
      if (args.flags.json) {
        io.stdout.write(`${JSON.stringify(m, null, 2)}\n`)
        return
      }
      io.stdout.write(`;; ${m.rcodeName}${m.flags.aa ? ' aa' : ''}${m.flags.tc ? ' tc' : ''}\n`)
      for (const [title, rrs] of [
        ['ANSWER', m.answers],
        ['AUTHORITY', m.authority],
        ['ADDITIONAL', m.additional],
      ] as const) {
        if (rrs.length === 0) continue
        io.stdout.write(`;; ${title}\n`)
        for (const r of rrs) io.stdout.write(`${r.name}\t${r.ttl}\tIN\t${r.type}\t${r.data}\n`)
      }
      return
    }
    case 'transfer': {
      const [, zone] = args.positionals
      if (!['status', 'axfr', 'notify'].includes(a ?? ''))
        throw new UsageError('usage: edgedns transfer status|axfr|notify <zone>')
      const id = await zoneId(client, zone)
      if (a === 'status') return transferStatus(client, id, args.flags.json === true, io.stdout)
      if (a === 'axfr') {
        await client.transfers.incoming.forceAxfr(id)
        const held = await client.transfers.incoming.get(id)
        io.stdout.write(`transferred: serial ${held.soa_serial}\n`)
        return
      }
      await client.transfers.outgoing.forceNotify(id)
      io.stdout.write('notify sent\n')
      return
    }
    default:
      throw new UsageError(args.command ? `unknown command ${args.command}` : 'missing command')
  }
}

/** Runs the CLI; returns the exit code. */
export async function main(argv: string[], io: Io, fetchImpl?: typeof fetch): Promise<number> {
  const args = parseArgs(argv)
  if (args.flags.help || args.flags.h || args.command === 'help') {
    io.stdout.write(`${USAGE}\n`)
    return 0
  }
  const url =
    typeof args.flags.url === 'string'
      ? args.flags.url
      : (io.env.EDGEDNS_URL ?? 'http://127.0.0.1:8787')
  const token = typeof args.flags.token === 'string' ? args.flags.token : io.env.EDGEDNS_TOKEN
  const client = new EdgeDns({ baseUrl: url, token, fetch: fetchImpl })
  try {
    await run(args, client, io)
    return 0
  } catch (e) {
    if (e instanceof UsageError) {
      io.stderr.write(`edgedns: ${e.message}\n\n${USAGE}\n`)
      return 2
    }
    if (e instanceof EdgeDnsError) {
      io.stderr.write(
        `\nedgedns: ${e.message} (${e.kind}${e.status ? ` ${e.status}` : ''}${e.code ? `, code ${e.code}` : ''}${e.pointer ? `, at ${e.pointer}` : ''})\n`
      )
      return 1
    }
    io.stderr.write(`\nedgedns: ${(e as Error).message ?? e}\n`)
    return 1
  }
}
