/**
 * `pnpm dev` (scripts/dev.mjs) as a user runs it, on free ports and a temp state directory: it starts
 * from a state with two accounts and no demo zone, and whatever ends it (SIGINT, SIGTERM, wrangler
 * killed with SIGKILL) leaves no process of the stack running and its ports free.
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process'
import { mkdtempSync, realpathSync, rmSync } from 'node:fs'
import { connect, createServer } from 'node:net'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
// @ts-expect-error plain ESM helper shared with `pnpm dev`
import { freePort, portInUse, ROOT } from '../../scripts/lib/stack.mjs'

const TOKEN = 'dev-command-token'

interface Proc {
  pid: number
  ppid: number
  pgid: number
  args: string
}

function processes(): Proc[] {
  return execFileSync('ps', ['-e', '-o', 'pid=,ppid=,pgid=,args='], { encoding: 'utf8' })
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => {
      const [pid, ppid, pgid, ...args] = l.trim().split(/\s+/)
      return { pid: Number(pid), ppid: Number(ppid), pgid: Number(pgid), args: args.join(' ') }
    })
}

/** Every process descending from `root`, and every member of their process groups but the test's own. */
function stackOf(root: number): Proc[] {
  const all = processes()
  const ownGroup = all.find((p) => p.pid === process.pid)?.pgid
  const pids = new Set([root])
  for (let grew = true; grew;) {
    grew = false
    for (const p of all) if (pids.has(p.ppid) && !pids.has(p.pid)) (pids.add(p.pid), (grew = true))
  }
  const groups = new Set(
    all.filter((p) => pids.has(p.pid) && p.pid !== root && p.pgid !== ownGroup).map((p) => p.pgid)
  )
  return all.filter((p) => p.pid !== root && (pids.has(p.pid) || groups.has(p.pgid)))
}

interface Dev {
  child: ChildProcess
  port: number
  h2Port: number
  dnsPort: number
  output: () => string
  exit: Promise<{ code: number | null; signal: NodeJS.Signals | null }>
}

/**
 * pnpm's own script, run by this node (no shell shim in between, so a signal reaches pnpm): the
 * pnpm running the tests (`pnpm test`), else the one on PATH.
 */
const PNPM = [
  process.execPath,
  process.env.npm_execpath ??
    realpathSync(execFileSync('sh', ['-c', 'command -v pnpm'], { encoding: 'utf8' }).trim()),
]

/** Starts `pnpm dev` (`via: 'pnpm'`, as a user types it) or the script under node directly. */
async function startDev(stateDir: string, via: 'pnpm' | 'node' = 'node'): Promise<Dev> {
  const port = await freePort()
  let h2Port = await freePort()
  while (h2Port === port) h2Port = await freePort()
  let dnsPort = await freePort()
  while (dnsPort === port || dnsPort === h2Port) dnsPort = await freePort()
  const args = [
    '--port',
    String(port),
    '--h2-port',
    String(h2Port),
    '--dns-port',
    String(dnsPort),
    '--persist-to',
    stateDir,
  ]
  const [cmd, ...pre] = via === 'pnpm' ? [...PNPM, 'dev'] : [process.execPath, 'scripts/dev.mjs']
  const child = spawn(cmd!, [...pre, ...args], {
    cwd: ROOT,
    env: { ...process.env, DEV_API_TOKEN: TOKEN, WRANGLER_SEND_METRICS: 'false' },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let out = ''
  child.stdout!.on('data', (d) => (out += d))
  child.stderr!.on('data', (d) => (out += d))
  const exit = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.on('exit', (code, signal) => resolve({ code, signal }))
  )
  const dev = { child, port, h2Port, dnsPort, output: () => out, exit }
  const ready = await Promise.race([
    waitFor(() => out.includes('edgedns is running'), 150_000),
    exit.then(() => false),
  ])
  if (!ready) throw new Error(`pnpm dev did not start:\n${out}`)
  return dev
}

async function waitFor(check: () => boolean, ms: number): Promise<boolean> {
  const until = Date.now() + ms
  while (!check()) {
    if (Date.now() > until) return false
    await new Promise((r) => setTimeout(r, 100))
  }
  return true
}

/** One raw HTTP/1.1 exchange (fetch cannot send CONNECT): the response head and body as text. */
function rawRequest(port: number, request: string): Promise<{ head: string; body: string }> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => socket.write(request))
    let data = ''
    socket.setEncoding('utf8')
    socket.on('data', (d) => (data += d))
    socket.on('error', reject)
    socket.on('close', () => {
      const at = data.indexOf('\r\n\r\n')
      resolve({ head: data.slice(0, at).replace(/\r\n/g, '\n'), body: data.slice(at + 4) })
    })
  })
}

async function api(dev: Dev, method: string, p: string, body?: unknown) {
  const res = await fetch(`http://127.0.0.1:${dev.port}/client/v4${p}`, {
    method,
    headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  })
  return (await res.json()) as { success: boolean; result: any }
}

/**
 * Ends `dev` with `stop`, then checks that none of the processes it had started is left once it
 * has said so (under pnpm, pnpm may exit first, while the script still stops the stack).
 */
async function expectStopsCleanly(dev: Dev, stop: (stack: Proc[]) => void) {
  const stack = stackOf(dev.child.pid!)
  expect(stack.some((p) => p.args.includes('workerd'))).toBe(true)
  stop(stack)
  const { code } = await dev.exit
  expect(await waitFor(() => dev.output().includes('edgedns dev: stopped.'), 30_000)).toBe(true)
  // The script has stopped the stack; its own wrappers (pnpm's shell, node's shim) exit just after it.
  const left = () => {
    const alive = new Set(processes().map((p) => p.pid))
    return stack.filter((p) => alive.has(p.pid)).map((p) => p.args)
  }
  await waitFor(() => left().length === 0, 5_000)
  expect(left()).toEqual([])
  expect(await portInUse(dev.port)).toBe(false)
  expect(await portInUse(dev.h2Port)).toBe(false)
  expect(await portInUse(dev.dnsPort)).toBe(false)
  return code
}

let stateDir = ''
/** The first start (through pnpm), ended by a SIGTERM to pnpm: its output. */
let firstRun = { output: '' }

beforeAll(async () => {
  stateDir = mkdtempSync(path.join(tmpdir(), 'edgedns-dev-'))
  // A first start seeds the demo zone; the user then adds an account and deletes the demo zone, and
  // ends `pnpm dev` with a SIGTERM to pnpm, as a process manager would (the clean stop is checked
  // here, and reported by its own test below).
  const dev = await startDev(stateDir, 'pnpm')
  expect(dev.output()).toContain('(created now)')
  const zones = await api(dev, 'GET', '/zones?name=example.com')
  expect(zones.result).toHaveLength(1)
  expect((await api(dev, 'POST', '/accounts', { name: 'Second account' })).success).toBe(true)
  expect((await api(dev, 'DELETE', `/zones/${zones.result[0].id}`)).success).toBe(true)
  await expectStopsCleanly(dev, () => dev.child.kill('SIGTERM'))
  firstRun = { output: dev.output() }
}, 180_000)

afterAll(() => rmSync(stateDir, { recursive: true, force: true }))

describe('pnpm dev', () => {
  it('starts on a state with two accounts and no demo zone, serves (405 and Allow for unserved methods, CONNECT included), and Ctrl-C (SIGINT) stops every process it started', async () => {
    const dev = await startDev(stateDir)
    expect(dev.output()).toContain('Demo zone  none')
    const accounts = await api(dev, 'GET', '/accounts')
    expect(accounts.result).toHaveLength(2)
    const zones = await api(dev, 'GET', '/zones')
    expect(zones.success).toBe(true)
    expect(zones.result.map((z: { name: string }) => z.name)).not.toContain('example.com')
    const doh = await fetch(`http://127.0.0.1:${dev.port}/dns-query?name=www.example.com&type=A`, {
      headers: { accept: 'application/dns-json' },
    })
    expect(doh.status).toBe(200)
    expect(((await doh.json()) as { Status: number }).Status).toBe(5) // REFUSED: no zone hosts it any more
    // The classic DNS front answers over UDP and over TCP.
    for (const transport of ['+notcp', '+tcp']) {
      const dig = execFileSync(
        'dig',
        [
          '@127.0.0.1',
          '-p',
          String(dev.dnsPort),
          transport,
          '+tries=1',
          '+time=5',
          'www.example.com',
          'A',
        ],
        { encoding: 'utf8' }
      )
      expect(dig, transport).toContain('status: REFUSED')
    }

    // Request lines the front once threw on: OPTIONS * and absolute-form. Answered, and the stack
    // keeps running (the checks below go on through it). A rebound Host gets nothing.
    const close = 'Connection: close\r\n\r\n'
    const options = await rawRequest(dev.port, `OPTIONS * HTTP/1.1\r\nHost: 127.0.0.1\r\n${close}`)
    expect(options.head).toMatch(/^HTTP\/1\.1 200 /)
    expect(options.head).toMatch(/^allow: GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS$/im)
    const absolute = await rawRequest(
      dev.port,
      `GET http://127.0.0.1:${dev.port}/client/v4/local_dev HTTP/1.1\r\nHost: rebind.example\r\n${close}`
    )
    expect(absolute.head).toMatch(/^HTTP\/1\.1 200 /)
    expect(absolute.body).toContain(TOKEN)
    const rebound = await rawRequest(
      dev.port,
      `GET /client/v4/local_dev HTTP/1.1\r\nHost: rebind.example:${dev.port}\r\n${close}`
    )
    expect(rebound.head).toMatch(/^HTTP\/1\.1 403 /)
    expect(rebound.body).not.toContain(TOKEN)

    // Every method a path does not serve gets 405 and Allow on the public port, CONNECT included
    // (Miniflare alone answers CONNECT with a 500).
    const connectDoh = await rawRequest(
      dev.port,
      'CONNECT /dns-query HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n'
    )
    expect(connectDoh.head).toMatch(/^HTTP\/1\.1 405 /)
    expect(connectDoh.head).toMatch(/^allow: GET, HEAD, POST, OPTIONS$/im)
    const connectApi = await rawRequest(
      dev.port,
      `CONNECT /client/v4/zones HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${TOKEN}\r\n\r\n`
    )
    expect(connectApi.head).toMatch(/^HTTP\/1\.1 405 /)
    expect(connectApi.head).toMatch(/^allow: GET, HEAD, POST$/im)
    expect(JSON.parse(connectApi.body).errors[0]).toMatchObject({
      code: 10405,
      message: expect.stringContaining('Method CONNECT is not allowed'),
    })
    const connectPage = await rawRequest(dev.port, 'CONNECT / HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n')
    expect(connectPage.head).toMatch(/^HTTP\/1\.1 405 /)
    expect(connectPage.head).toMatch(/^allow: GET, HEAD$/im)
    for (const [method, path, allow] of [
      ['PUT', '/dns-query', 'GET, HEAD, POST, OPTIONS'],
      ['DELETE', '/', 'GET, HEAD'],
    ] as const) {
      const res = await fetch(`http://127.0.0.1:${dev.port}${path}`, { method })
      expect([method, path, res.status, res.headers.get('allow')]).toEqual([
        method,
        path,
        405,
        allow,
      ])
    }

    const code = await expectStopsCleanly(dev, () => dev.child.kill('SIGINT'))
    expect(code).toBe(0)
    expect(dev.output()).toContain('interrupted (Ctrl-C); stopping')
  }, 180_000)

  it('SIGTERM to pnpm stops every process pnpm dev started and frees its ports (checked on the first start, in beforeAll)', () => {
    expect(firstRun.output).toMatch(
      /edgedns dev: (SIGTERM received|its launcher \(pid \d+\) exited); stopping/
    )
  })

  it('wrangler killed with SIGKILL: it exits with a message and stops the workerd runtimes wrangler left orphaned', async () => {
    const dev = await startDev(stateDir)
    const code = await expectStopsCleanly(dev, (stack) => {
      // The wrangler process that runs workerd: killing it orphans the runtimes unless pnpm dev reaps them.
      const workerd = stack.find((p) => p.args.includes('workerd'))!
      process.kill(workerd.ppid, 'SIGKILL')
    })
    expect(code).toBe(1)
    expect(dev.output()).toMatch(/wrangler dev exited unexpectedly \(.*\); stopping/)
  }, 180_000)

  it('reports a port in use with what to do, not a stack trace', async () => {
    const busy = createServer()
    await new Promise<void>((r) => busy.listen(0, '127.0.0.1', r))
    const port = (busy.address() as { port: number }).port
    try {
      const out = execFileSync(
        process.execPath,
        ['scripts/dev.mjs', '--port', String(port), '--persist-to', stateDir],
        {
          cwd: ROOT,
          encoding: 'utf8',
          stdio: ['ignore', 'pipe', 'pipe'],
        }
      ).toString()
      expect.unreachable(`pnpm dev started on a busy port:\n${out}`)
    } catch (e) {
      const err = e as { status: number; stderr: string }
      expect(err.status).toBe(1)
      expect(err.stderr).toContain(`port ${port} on 127.0.0.1 is already in use`)
      expect(err.stderr).toContain('PORT=')
      expect(err.stderr).not.toMatch(/^\s+at /m)
    } finally {
      busy.close()
    }
  })
})
