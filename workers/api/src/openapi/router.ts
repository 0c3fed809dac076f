/**
 * @module Public documentation routes, mounted on the outer app before the authenticated API:
 *   GET /client/v4/openapi.json  the OpenAPI 3.1 document (generated from the zod schemas)
 *   GET /client/v4/docs          the browsable reference page rendering it
 */
import { Hono } from 'hono'
import type { AppEnv } from '../http/app-env.ts'
import { DOCS_HTML } from './docs-page.ts'
import { openApiDocument } from './document.ts'

export const openapiApp = new Hono<AppEnv>()

openapiApp.get('/openapi.json', (c) => {
  c.header('access-control-allow-origin', '*')
  c.header('cache-control', 'public, max-age=300')
  return c.json(openApiDocument())
})

openapiApp.get('/docs', (c) => c.html(DOCS_HTML))
