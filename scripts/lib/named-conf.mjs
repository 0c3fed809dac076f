/**
 * @module A local BIND 9 `named` for the interop tests and the transfer benchmarks: the one
 * place its configuration's common part is written (own directory, one loopback port, no
 * recursion, no validation, no control channel, hmac-sha256 TSIG keys) and the process started
 * with its whole log kept.
 */
import { spawn } from 'node:child_process'
import { writeFileSync } from 'node:fs'
import path from 'node:path'

/**
 * named.conf for a server in `dir` listening on 127.0.0.1 `port`: `options` are further lines of
 * the options block (e.g. `notify no;`), `keys` maps TSIG key names to base64 secrets
 * (hmac-sha256), `zones` is the rest of the file (zone statements).
 */
export function namedConf({ dir, port, options = [], keys = {}, zones = '' }) {
  const keyClauses = Object.entries(keys).map(
    ([name, secret]) => `key "${name}" { algorithm hmac-sha256; secret "${secret}"; };`
  )
  return `options {
  directory "${dir}";
  pid-file "${dir}/named.pid";
  session-keyfile "${dir}/session.key";
  listen-on port ${port} { 127.0.0.1; };
  listen-on-v6 { none; };
  recursion no;
  dnssec-validation no;
${options.map((line) => `  ${line}\n`).join('')}};
controls { };
${keyClauses.join('\n')}
${zones}
`
}

/**
 * Writes `conf` to `dir`/named.conf and starts named in the foreground on it. Returns the child
 * process and `log()`, everything it has written so far (stdout and stderr).
 */
export function spawnNamed(dir, conf) {
  const file = path.join(dir, 'named.conf')
  writeFileSync(file, conf)
  const child = spawn('named', ['-g', '-c', file], { stdio: ['ignore', 'pipe', 'pipe'] })
  let log = ''
  child.stderr.on('data', (d) => (log += d))
  child.stdout.on('data', (d) => (log += d))
  return { child, log: () => log }
}
