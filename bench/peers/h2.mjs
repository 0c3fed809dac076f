/**
 * @module A minimal HTTP/2 (prior knowledge, cleartext) GET client for BIND's DoH listener, which
 * speaks HTTP/2 only.
 */
import http2 from 'node:http2'

export async function h2Client(origin) {
  const session = http2.connect(origin)
  await new Promise((resolve, reject) => session.once('connect', resolve).once('error', reject))
  session.on('error', () => {})
  return {
    get(path) {
      return new Promise((resolve, reject) => {
        const req = session.request({ ':path': path })
        const chunks = []
        let status = 0
        req.on('response', (h) => (status = h[':status']))
        req.on('data', (c) => chunks.push(c))
        req.on('end', () =>
          status === 200 ? resolve(Buffer.concat(chunks)) : reject(new Error(`HTTP ${status}`))
        )
        req.on('error', reject)
        req.end()
      })
    },
    close: () => session.close(),
  }
}
