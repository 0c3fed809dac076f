export default {
  async fetch(req: Request): Promise<Response> {
    return Response.json({ ok: true, path: new URL(req.url).pathname })
  },
} satisfies ExportedHandler
export class ZoneBuilder {
  constructor(_s: DurableObjectState, _e: unknown) {}
  async fetch() { return new Response('x') }
}
