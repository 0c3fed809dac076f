/**
 * `cloudflare:sockets` for tests that run in Node (the scripts project): they import API modules for
 * their schemas and types (the OpenAPI document), never to open a socket.
 */
export function connect(): never {
  throw new Error('cloudflare:sockets is not available outside workerd')
}
