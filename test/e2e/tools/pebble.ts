/**
 * Pebble, Let's Encrypt's ACME test CA, for the end-to-end tests: built once from the Go module
 * proxy into the tool cache (./cache.ts), then started on loopback ports with a TLS certificate made for
 * the run. It answers DNS-01 challenges by asking the DNS server it is given, and really
 * validates: every authorization is checked afresh (no reuse, nothing assumed valid).
 */
import { execFile, spawn, spawnSync, type ChildProcess } from 'node:child_process'
import { readFileSync, writeFileSync } from 'node:fs'
import https from 'node:https'
import path from 'node:path'
import { promisify } from 'node:util'
import { ensureCached } from './cache.ts'
// @ts-expect-error plain ESM helper shared with `pnpm dev`
import { freePort } from '../../../scripts/lib/stack.mjs'

const run = promisify(execFile)

const PEBBLE_MODULE = 'github.com/letsencrypt/pebble/v2/cmd/pebble'
const PEBBLE_VERSION = 'v2.10.3'

/** The `go` command: the one on PATH, else the usual install location. */
function goCommand(): string | null {
  for (const go of ['go', '/usr/local/go/bin/go']) {
    if (!spawnSync(go, ['version']).error) return go
  }
  return null
}

/** Why Pebble cannot be built or run here, or null when Go and openssl are available. */
export function missingPebbleTools(): string | null {
  if (goCommand() === null) return 'Go is not installed (Pebble is built with `go install`)'
  if (spawnSync('openssl', ['version']).error)
    return 'openssl is not installed (Debian: apt-get install openssl)'
  return null
}

/** The Pebble binary, built with `go install` on the first call and reused afterwards. */
export async function ensurePebble(): Promise<string> {
  const dir = await ensureCached(`pebble-${PEBBLE_VERSION}`, async (gobin) => {
    // GOTOOLCHAIN=local: build with the installed Go, or fail saying which version the module needs.
    await run(goCommand()!, ['install', `${PEBBLE_MODULE}@${PEBBLE_VERSION}`], {
      env: { ...process.env, GOBIN: gobin, GOTOOLCHAIN: 'local' },
      timeout: 300_000,
    })
  })
  return path.join(dir, 'pebble')
}

/**
 * A CA and a server certificate for 127.0.0.1 signed by it, written to `dir` (made for each run, so
 * none expires). Returns the file paths; the CA certificate is what an ACME client trusts to reach
 * Pebble.
 */
async function makeTlsCertificate(dir: string): Promise<{ ca: string; cert: string; key: string }> {
  const openssl = (args: string) => run('openssl', args.split(' '), { cwd: dir })
  const ec = '-newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes'
  await openssl(
    `req -x509 ${ec} -days 2 -subj /CN=edgedns-e2e-ca -keyout ca.key -out ca.pem ` +
      '-addext basicConstraints=critical,CA:TRUE -addext keyUsage=critical,keyCertSign,cRLSign'
  )
  await openssl(`req ${ec} -subj /CN=127.0.0.1 -keyout key.pem -out server.csr`)
  writeFileSync(
    path.join(dir, 'server.ext'),
    [
      'basicConstraints=critical,CA:FALSE',
      'keyUsage=critical,digitalSignature',
      'extendedKeyUsage=serverAuth',
      'subjectAltName=IP:127.0.0.1',
      'authorityKeyIdentifier=keyid',
      'subjectKeyIdentifier=hash',
      '',
    ].join('\n')
  )
  await openssl(
    'x509 -req -in server.csr -CA ca.pem -CAkey ca.key -CAcreateserial -days 2 ' +
      '-extfile server.ext -out cert.pem'
  )
  const file = (name: string) => path.join(dir, name)
  return { ca: file('ca.pem'), cert: file('cert.pem'), key: file('key.pem') }
}

/** Status of an HTTPS GET that trusts only `ca`. */
function probe(url: string, ca: Buffer): Promise<number> {
  return new Promise((resolve, reject) => {
    https
      .get(url, { ca, agent: false, headers: { 'user-agent': 'edgedns-e2e' } }, (res) => {
        res.resume()
        resolve(res.statusCode ?? 0)
      })
      .on('error', reject)
  })
}

export interface Pebble {
  /** The ACME directory URL. */
  directory: string
  /** The CA certificate file a client must trust to reach `directory`. */
  caBundle: string
  /** Everything Pebble printed so far. */
  log(): string
  stop(): Promise<void>
}

/**
 * Starts Pebble on a free port of 127.0.0.1, validating DNS-01 challenges against the DNS server at
 * `dnsServer` (`host:port`, UDP). Its configuration and certificates go into `dir`. Resolves once
 * the ACME directory answers.
 */
export async function startPebble({
  binary,
  dnsServer,
  dir,
}: {
  binary: string
  dnsServer: string
  dir: string
}): Promise<Pebble> {
  const tls = await makeTlsCertificate(dir)
  const port = await freePort()
  const config = path.join(dir, 'pebble-config.json')
  writeFileSync(
    config,
    JSON.stringify({
      pebble: {
        listenAddress: `127.0.0.1:${port}`,
        managementListenAddress: '',
        certificate: tls.cert,
        privateKey: tls.key,
        // Ports Pebble would connect to for HTTP-01 and TLS-ALPN-01; only DNS-01 is used here.
        httpPort: await freePort(),
        tlsPort: await freePort(),
        ocspResponderURL: '',
        externalAccountBindingRequired: false,
        retryAfter: { authz: 1, order: 1 },
        keyAlgorithm: 'ecdsa',
      },
    })
  )
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    // Validate at once instead of after a random pause of up to 15 s.
    PEBBLE_VA_NOSLEEP: '1',
    // Accept every good nonce (by default Pebble rejects some to exercise client retries).
    PEBBLE_WFE_NONCEREJECT: '0',
    // Every authorization is new, so every name is validated through DNS.
    PEBBLE_AUTHZREUSE: '0',
  }
  delete env.PEBBLE_VA_ALWAYS_VALID
  const child: ChildProcess = spawn(binary, ['-config', config, '-dnsserver', dnsServer], {
    cwd: dir,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let log = ''
  child.stdout!.on('data', (d) => (log += d))
  child.stderr!.on('data', (d) => (log += d))
  let exited = false
  child.on('exit', () => (exited = true))
  const stop = async () => {
    if (exited) return
    const gone = new Promise((resolve) => child.once('exit', resolve))
    child.kill('SIGTERM')
    await gone
  }
  const directory = `https://127.0.0.1:${port}/dir`
  const ca = readFileSync(tls.ca)
  const deadline = Date.now() + 20_000
  for (;;) {
    if (exited) throw new Error(`Pebble exited early\n${log}`)
    if (Date.now() > deadline) {
      await stop()
      throw new Error(`Pebble did not answer on ${directory} within 20 s\n${log}`)
    }
    if ((await probe(directory, ca).catch(() => 0)) === 200) break
    await new Promise((r) => setTimeout(r, 100))
  }
  return { directory, caBundle: tls.ca, log: () => log, stop }
}
