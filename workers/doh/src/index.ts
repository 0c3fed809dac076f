export default { async fetch(): Promise<Response> { return new Response('doh') } } satisfies ExportedHandler
