/**
 * The DNS front's packaging (deploy/dns-front/) agrees with the code: the systemd unit and the
 * container run the bundle `pnpm build:dns-front` writes, as an unprivileged user allowed port 53,
 * and the settings file, the docs and the code name the same settings with the same defaults.
 */
import { spawnSync } from 'node:child_process'
import { readFileSync } from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
// @ts-expect-error plain ESM module
import { BUNDLE } from './dns-front-bundle.mjs'
// @ts-expect-error plain ESM module
import { frontSettings, SETTINGS } from './front-settings.mjs'
// @ts-expect-error plain ESM module
import { ROOT } from './stack.mjs'

const read = (file: string) => readFileSync(path.join(ROOT, file), 'utf8')
const DIR = 'deploy/dns-front'
const bundleFile = path.relative(ROOT, BUNDLE as string)
const settings = SETTINGS as [string, string, string][]

/** `Key=value` lines of a systemd unit or env file, comments and blank lines left out. */
function assignments(text: string): Map<string, string> {
  const out = new Map<string, string>()
  for (const line of text.split('\n')) {
    const m = /^([A-Za-z_]+)=(.*)$/.exec(line.trim())
    if (m) out.set(m[1]!, m[2]!)
  }
  return out
}

describe('the systemd unit', () => {
  const unit = assignments(read(`${DIR}/edgedns-dns-front.service`))

  it('runs the bundle with node, settings from an EnvironmentFile, restarting on failure', () => {
    expect(unit.get('ExecStart')).toMatch(
      new RegExp(`^/usr/bin/node /\\S+/${path.basename(bundleFile)}$`)
    )
    expect(unit.get('EnvironmentFile')).toMatch(/^\/etc\/\S+\.env$/)
    expect(unit.get('Restart')).toBe('on-failure')
    // Exit status 2 is a bad setting (scripts/dns-front.mjs): restarting cannot mend it.
    expect(unit.get('RestartPreventExitStatus')).toBe('2')
  })

  it('runs as an unprivileged user with only CAP_NET_BIND_SERVICE', () => {
    expect(unit.get('DynamicUser')).toBe('yes')
    expect(unit.has('User')).toBe(false)
    expect(unit.get('AmbientCapabilities')).toBe('CAP_NET_BIND_SERVICE')
    expect(unit.get('CapabilityBoundingSet')).toBe('CAP_NET_BIND_SERVICE')
    expect(unit.get('NoNewPrivileges')).toBe('yes')
  })
})

describe('the container file', () => {
  const dockerfile = read(`${DIR}/Dockerfile`)
  const lines = dockerfile.split('\n').filter((l) => l && !l.startsWith('#'))

  it('runs the bundle on node:22-slim as a non-root user, exposing 53/udp and 53/tcp', () => {
    expect(lines[0]).toBe('FROM node:22-slim')
    const copies = lines.filter((l) => l.startsWith('COPY '))
    expect(copies).toEqual([`COPY ${bundleFile} /app/dns-front.mjs`])
    expect(lines).toContain('USER node')
    expect(lines).toContain('EXPOSE 53/udp 53/tcp')
    expect(lines.at(-1)).toBe('CMD ["node", "/app/dns-front.mjs"]')
  })

  it('sends only the bundle as build context', () => {
    const ignore = read(`${DIR}/Dockerfile.dockerignore`)
      .split('\n')
      .filter((l) => l && !l.startsWith('#'))
    expect(ignore).toEqual(['*', `!${bundleFile}`])
  })
})

describe('the settings', () => {
  it('the example settings file lists every setting the front reads, with its default', () => {
    const text = read(`${DIR}/dns-front.env.example`)
    for (const [name, value] of settings) {
      if (value) expect(assignments(text).get(name), name).toBe(value)
      else expect(text, name).toMatch(new RegExp(`^#?${name}=`, 'm'))
    }
  })

  it('docs/dns-front.md documents every setting with its default', () => {
    const doc = read('docs/dns-front.md')
    for (const [name, value] of settings) {
      const row = doc.split('\n').find((l) => l.startsWith(`| \`${name}\``))
      expect(row, name).toBeDefined()
      if (value) expect(row, name).toContain(`\`${value}\``)
    }
  })

  it('reads the defaults, and names the variable a bad value is in', () => {
    const options = frontSettings({ DNS_FRONT_DOH: 'https://doh.example.net/' })
    expect(options).toMatchObject({
      target: 'https://doh.example.net',
      host: '0.0.0.0',
      port: 53,
      udpSockets: 8,
      tcpClients: 1000,
      tcpClientConnections: 256,
      relayTimeoutMs: 10_000,
      relayMaxSeconds: 7200,
      cache: { maxTtl: 5, maxEntries: 50_000 },
      rrl: { rate: 20, slip: 2 },
      upstream: { concurrency: 64, timeoutMs: 2000, perClient: { rate: 1000 } },
      relayLimits: { clientRate: 1000, clientConcurrency: 128, concurrency: 512 },
      udpRelayLimits: { clientConcurrency: 128, concurrency: 512 },
    })
    expect(options.transfer).toBeUndefined()
    const relayed = frontSettings({ DNS_FRONT_DOH: 'https://d.example', DNS_FRONT_TOKEN: 't' })
    expect(relayed.transfer).toEqual({ token: 't', api: 'https://d.example' })
    expect(relayed.notify).toEqual({ token: 't', api: 'https://d.example' })
    expect(() => frontSettings({})).toThrow(/DNS_FRONT_DOH/)
    expect(() => frontSettings({ DNS_FRONT_DOH: 'doh.example' })).toThrow(/DNS_FRONT_DOH/)
    expect(() =>
      frontSettings({ DNS_FRONT_DOH: 'https://d.example', DNS_FRONT_RRL_RATE: 'lots' })
    ).toThrow(/DNS_FRONT_RRL_RATE/)
    expect(() =>
      frontSettings({ DNS_FRONT_DOH: 'https://d.example', DNS_FRONT_PORT: '70000' })
    ).toThrow(/DNS_FRONT_PORT/)
    expect(() =>
      frontSettings({ DNS_FRONT_DOH: 'https://d.example', DNS_FRONT_RELAY_TIMEOUT_MS: '0' })
    ).toThrow(/DNS_FRONT_RELAY_TIMEOUT_MS/)
    expect(() =>
      frontSettings({ DNS_FRONT_DOH: 'https://d.example', DNS_FRONT_RELAY_MAX_SECONDS: '0' })
    ).toThrow(/DNS_FRONT_RELAY_MAX_SECONDS/)
    // Past the longest a Node.js timer waits, a timer would fire at once: every query would fail.
    for (const name of ['DNS_FRONT_RELAY_TIMEOUT_MS', 'DNS_FRONT_UPSTREAM_TIMEOUT_MS'])
      expect(() =>
        frontSettings({ DNS_FRONT_DOH: 'https://d.example', [name]: '2147483648' })
      ).toThrow(new RegExp(name))
    expect(() =>
      frontSettings({ DNS_FRONT_DOH: 'https://d.example', DNS_FRONT_RELAY_CONCURRENCY: '-1' })
    ).toThrow(/DNS_FRONT_RELAY_CONCURRENCY/)
    expect(() =>
      frontSettings({ DNS_FRONT_DOH: 'https://d.example', DNS_FRONT_TCP_CLIENTS: '0' })
    ).toThrow(/DNS_FRONT_TCP_CLIENTS/)
  })

  it('refuses a DNS_FRONT_HOST that is not an IP address, naming the variable', () => {
    const base = { DNS_FRONT_DOH: 'https://d.example' }
    expect(frontSettings({ ...base, DNS_FRONT_HOST: '::' }).host).toBe('::')
    expect(() => frontSettings({ ...base, DNS_FRONT_HOST: 'ns1.example.net' })).toThrow(
      /DNS_FRONT_HOST must be an IPv4 or IPv6 address/
    )
  })
})

describe('the command line', () => {
  const run = (...args: string[]) =>
    spawnSync(process.execPath, [path.join(ROOT, 'scripts/dns-front.mjs'), ...args], {
      encoding: 'utf8',
      env: process.env,
      timeout: 20_000,
    })

  it('--help lists every setting with its default and starts nothing', () => {
    const out = run('--help')
    expect(out.status).toBe(0)
    for (const [name, value] of settings) {
      const line = out.stdout.split('\n').find((l) => l.trim().startsWith(`${name} `))
      expect(line, name).toBeDefined()
      if (value) expect(line, name).toContain(`[${value}]`)
    }
  })

  it('refuses arguments, since its settings come from the environment', () => {
    const out = run('--port', '5353')
    expect(out.status).toBe(2)
    expect(out.stderr).toMatch(/unknown argument --port; settings come from the environment/)
  })

  it('names the variables when it cannot listen, instead of a stack trace', () => {
    const out = spawnSync(process.execPath, [path.join(ROOT, 'scripts/dns-front.mjs')], {
      encoding: 'utf8',
      // 192.0.2.1 (TEST-NET-1) is no address of this host.
      env: {
        ...process.env,
        DNS_FRONT_DOH: 'http://127.0.0.1:9',
        DNS_FRONT_HOST: '192.0.2.1',
        DNS_FRONT_PORT: '0',
      },
      timeout: 20_000,
    })
    expect(out.status).toBe(1)
    expect(out.stderr).toMatch(
      /cannot listen on 192\.0\.2\.1 port 0 \(DNS_FRONT_HOST, DNS_FRONT_PORT\)/
    )
    expect(out.stderr).not.toMatch(/\n\s+at /)
  })
})
