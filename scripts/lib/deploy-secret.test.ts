/**
 * The DNSSEC key-encryption secret across deploys, against a stubbed wrangler
 * (./test-deploy-account.ts): generated once, kept in a private file, put on each worker that
 * lacks it, never overwritten blindly.
 */
import { existsSync, readFileSync, statSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
// @ts-expect-error plain ESM module
import { deploy, DeployError, DNSSEC_SECRET, SECRET_FILE } from './deploy-steps.mjs'
// @ts-expect-error plain ESM module
import { ROOT } from './stack.mjs'
import { fakeAccount, root, secretFile } from './test-deploy-account.ts'

describe('pnpm run deploy: the DNSSEC secret', () => {
  it('first deploy: generates it into a private, git-ignored file and puts it on both workers through stdin, never printing it', () => {
    const account = fakeAccount()
    const lines: string[] = []
    const result = deploy({ run: account.run, root, log: (l: string) => lines.push(l) })
    const value = readFileSync(secretFile(), 'utf8').trim()
    // 256 random bits as URL-safe base64: what the workers accept (a string of 16+ characters).
    expect(value).toMatch(/^[A-Za-z0-9_-]{43}$/)
    expect(statSync(secretFile()).mode & 0o777).toBe(0o600)
    expect(account.secretOf('edgedns-api')).toBe(value)
    expect(account.secretOf('edgedns-doh')).toBe(value)
    expect(account.calls.filter((c) => c.args[1] === 'put').map((c) => c.input?.trim())).toEqual([
      value,
      value,
    ])
    expect(result.secret).toEqual({ created: true, put: ['edgedns-api', 'edgedns-doh'] })
    // Never on a command line, never in what the deploy prints.
    expect(account.calls.flatMap((c) => c.args).join(' ')).not.toContain(value)
    expect(lines.join('\n')).not.toContain(value)
    expect(lines.join('\n')).toMatch(new RegExp(`${SECRET_FILE}.*BACK IT UP`))
    expect(readFileSync(path.join(ROOT, '.gitignore'), 'utf8').split('\n')).toContain(
      `/${SECRET_FILE}`
    )
  })

  it('a re-deploy reuses the kept value: nothing is put while both workers hold it, and the file is not rewritten', () => {
    const account = fakeAccount()
    deploy({ run: account.run, root })
    const kept = readFileSync(secretFile(), 'utf8')
    account.calls.length = 0
    const lines: string[] = []
    const second = deploy({ run: account.run, root, log: (l: string) => lines.push(l) })
    expect(account.commands.filter((c) => c[0] === 'secret' && c[1] === 'put')).toEqual([])
    expect(second.secret).toEqual({ created: false, put: [] })
    expect(readFileSync(secretFile(), 'utf8')).toBe(kept)
    expect(lines.join('\n')).not.toContain(kept.trim())
  })

  it('a re-deploy puts the kept value on a worker that lacks it (deployed before the secret existed)', () => {
    const value = 'kept-value-from-an-earlier-deploy-0123456789'
    writeFileSync(secretFile(), `${value}\n`, { mode: 0o600 })
    const account = fakeAccount({
      secrets: { 'edgedns-api': [DNSSEC_SECRET], 'edgedns-doh': [] },
    })
    const result = deploy({ run: account.run, root })
    expect(result.secret).toEqual({ created: false, put: ['edgedns-doh'] })
    expect(account.secretOf('edgedns-doh')).toBe(value)
    // The API's value is left alone: a deploy never replaces a secret a worker holds.
    expect(account.secretOf('edgedns-api')).toBe('a value set before')
    expect(readFileSync(secretFile(), 'utf8')).toBe(`${value}\n`)
  })

  it('without the file while a worker holds the secret: refuses to overwrite it and says to restore the file', () => {
    const account = fakeAccount({ secrets: { 'edgedns-api': [DNSSEC_SECRET] } })
    expect(() => deploy({ run: account.run, root })).toThrow(DeployError)
    expect(() => deploy({ run: account.run, root })).toThrow(
      new RegExp(`set on edgedns-api.*Restore ${SECRET_FILE} from your backup`)
    )
    expect(account.commands.filter((c) => c[0] === 'secret' && c[1] === 'put')).toEqual([])
    expect(account.secretOf('edgedns-api')).toBe('a value set before')
    expect(existsSync(secretFile())).toBe(false)
  })
})
