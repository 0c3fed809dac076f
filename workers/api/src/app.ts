/**
 * @module The API application: /client/v4 routes, auth, body limit and the error envelope.
 */
import { Hono } from 'hono'
import { bodyLimit } from 'hono/body-limit'
import { authenticate } from './auth/authenticate.ts'
import { openDb } from './db/client.ts'
import { methodRefusal } from './openapi/allowed-methods.ts'
import { ApiError, Codes } from './http/api-error.ts'
import { maxBodyBytes } from './http/body-limit.ts'
import type { AppEnv } from './http/app-env.ts'
import { identityBodies } from './http/content-encoding.ts'
import { loopbackOnly } from './http/loopback.ts'
import { onError } from './http/on-error.ts'
import { accountsApp } from './routes/accounts.ts'
import { audit } from './routes/audit.ts'
import { auditLogsApp } from './routes/audit-logs.ts'
import { importExport } from './routes/import-export.ts'
import { localDevApp } from './routes/local-dev.ts'
import { openapiApp } from './openapi/router.ts'
import { notifyAfterResponse } from './builder/notify.ts'
import { pageRulesApp } from './routes/pagerules.ts'
import { propagationApp } from './routes/propagation.ts'
import { records } from './routes/records.ts'
import { shardsApp } from './routes/shards.ts'
import { sweepApp } from './routes/sweep.ts'
import { tokensApp } from './routes/tokens.ts'
import { zonesApp } from './routes/zones.ts'
import { dohResolver, type OwnershipResolver } from './zones/resolver.ts'
import { tcpExchange } from './zones/tcp-exchange.ts'
import { dnssecApp } from './routes/dnssec.ts'
import { secondaryDnsAccountApp } from './routes/secondary-dns-account.ts'
import { secondaryDnsZoneApp } from './routes/secondary-dns-zone.ts'
import { dnsTransferApp } from './routes/dns-transfer.ts'
import { secondaryDnsNotifyApp } from './routes/secondary-dns-notify.ts'
import { secondaryAxfrApp } from './routes/secondary-dns-axfr.ts'
import { dnsNotifyApp } from './routes/dns-notify.ts'
import { asLargeRequest } from './transfers/packed-axfrs.ts'

/**
 * A request body past this many bytes (or of unknown length) is a large batch or import: the
 * isolate's caches that can be rebuilt are let go first and kept no more while it runs, so the
 * request has the memory (after authentication: nobody else can empty them).
 */
const LARGE_BODY_BYTES = 1024 * 1024

function largeBody(req: Request): boolean {
  if (req.body === null) return false
  const length = Number(req.headers.get('content-length') ?? NaN)
  return !Number.isFinite(length) || length > LARGE_BODY_BYTES
}

export interface AppOptions {
  /**
   * How zone ownership is looked up in the public DNS (default: TXT through DoH to
   * `VERIFICATION_RESOLVER`, the delegation from the parent zone's servers over TCP).
   */
  ownershipResolver?: OwnershipResolver
}

export function createApp(options: AppOptions = {}): Hono<AppEnv> {
  const api = new Hono<AppEnv>()
  api.use('*', async (c, next) => {
    c.set('db', openDb(c.env.DB))
    c.set(
      'ownershipResolver',
      options.ownershipResolver ??
        dohResolver(c.env.VERIFICATION_RESOLVER || undefined, fetch, tcpExchange())
    )
    await next()
  })
  api.use('*', notifyAfterResponse)
  api.use('*', identityBodies)
  api.use('*', (c, next) => {
    const max = maxBodyBytes(c.env)
    return bodyLimit({
      maxSize: max,
      onError: () => {
        throw new ApiError(
          413,
          Codes.bodyTooLarge,
          `Request body is larger than the limit of ${max} bytes`
        )
      },
    })(c, next)
  })
  api.use('*', authenticate)
  api.use('*', (c, next) => {
    const refusal = methodRefusal(c.req.method, c.req.path)
    if (refusal) throw refusal
    return next()
  })
  api.use('*', (c, next) => (largeBody(c.req.raw) ? asLargeRequest(next) : next()))
  api.route('/accounts', accountsApp)
  api.route('/accounts/:account_id{[0-9a-f]{32}}/tokens', tokensApp)
  api.route('/accounts/:account_id{[0-9a-f]{32}}/shard', shardsApp)
  api.route('/accounts/:account_id{[0-9a-f]{32}}/audit_logs', auditLogsApp)
  api.route('/accounts/:account_id{[0-9a-f]{32}}/secondary_dns', secondaryDnsAccountApp)
  api.route('/user/tokens', tokensApp)
  api.route('/user/audit_logs', auditLogsApp)
  api.route('/zones/:zone_id{[^/]+}/dns_records/audit', audit)
  api.route('/zones/:zone_id{[^/]+}/dns_records', importExport)
  api.route('/zones/:zone_id{[^/]+}/dns_records', records)
  api.route('/zones/:zone_id{[^/]+}/propagation', propagationApp)
  api.route('/zones/:zone_id{[^/]+}/pagerules', pageRulesApp)
  api.route('/zones/:zone_id{[^/]+}/dnssec', dnssecApp)
  api.route('/zones/:zone_id{[^/]+}/secondary_dns/outgoing', secondaryDnsNotifyApp)
  api.route('/zones/:zone_id{[^/]+}/secondary_dns', secondaryDnsZoneApp)
  api.route('/zones/:zone_id{[^/]+}/secondary_dns', secondaryAxfrApp)
  api.route('/zones', zonesApp)
  api.route('/propagation/sweep', sweepApp)
  api.route('/dns_transfer', dnsTransferApp)
  api.route('/dns_notify', dnsNotifyApp)

  const app = new Hono<AppEnv>()
  // Local development serves only requests addressed to loopback (DNS rebinding); a no-op deployed.
  app.use('*', loopbackOnly)
  // Public, before the authenticated API: its auth middleware would run on every /client/v4 path.
  app.route('/client/v4', openapiApp)
  app.route('/client/v4', localDevApp)
  app.route('/client/v4', api)
  app.all('/client/v4/*', (c) => {
    const path = new URL(c.req.url).pathname
    const refusal = methodRefusal(c.req.method, path)
    if (refusal) throw refusal
    throw ApiError.badRequest(Codes.noRoute, `No route for that URI: ${c.req.method} ${path}`)
  })
  app.onError(onError)
  api.onError(onError)
  app.notFound((c) => onError(new ApiError(404, Codes.noRoute, 'No route for that URI'), c))
  return app
}
