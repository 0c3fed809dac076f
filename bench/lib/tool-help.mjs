/**
 * @module `--help` of the bench tools: prints a tool's leading doc comment (what it measures, its
 * arguments and settings) and exits, before the tool starts a stack or writes anything.
 */
import { readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'

/** With `--help` (or `-h`) among the arguments: prints the doc comment of `moduleUrl` and exits. */
export function helpIfAsked(moduleUrl, args = process.argv.slice(2)) {
  if (!args.includes('--help') && !args.includes('-h')) return
  const source = readFileSync(fileURLToPath(moduleUrl), 'utf8')
  const doc = /\/\*\*([\s\S]*?)\*\//.exec(source)?.[1] ?? ''
  const lines = doc.split('\n').map((line) => line.replace(/^\s*\* ?/, ''))
  console.log(lines.join('\n').replace('@module ', '').trim())
  process.exit(0)
}
