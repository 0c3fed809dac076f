/**
 * @module The DNS front's upstream: DNS messages POSTed to the DoH endpoint (`<target>/dns-query`)
 * over kept-alive HTTP connections, at most `concurrency` at a time, at most `queue` more waiting;
 * a query that finds the queue full, or gets no answer within `timeoutMs` of arriving, fails at
 * once (the front answers it SERVFAIL) instead of waiting. Identical queries in flight share one
 * request.
 */
import http from 'node:http'
import https from 'node:https'

class UpstreamError extends Error {}

/** `ask(key, query)` → the DoH answer (a Buffer); rejects with UpstreamError. */
export function dohUpstream({ target, concurrency = 64, queue = 512, timeoutMs = 2000 }) {
  const url = `${target.replace(/\/$/, '')}/dns-query`
  const mod = url.startsWith('https:') ? https : http
  const agent = new mod.Agent({ keepAlive: true, maxSockets: concurrency, scheduling: 'lifo' })
  const waiting = []
  const inFlight = new Map()
  let active = 0

  function post(query, deadline) {
    return new Promise((resolve, reject) => {
      const left = deadline - Date.now()
      if (left <= 0) return reject(new UpstreamError('timed out waiting for a connection'))
      const req = mod.request(url, {
        agent,
        method: 'POST',
        headers: {
          'content-type': 'application/dns-message',
          accept: 'application/dns-message',
          'content-length': String(query.length),
        },
        timeout: left,
      })
      const timer = setTimeout(() => req.destroy(new UpstreamError('timed out')), left)
      req.on('response', (res) => {
        const chunks = []
        res.on('data', (c) => chunks.push(c))
        res.on('end', () => {
          clearTimeout(timer)
          if (res.statusCode === 200) resolve(Buffer.concat(chunks))
          else reject(new UpstreamError(`DoH answered HTTP ${res.statusCode}`))
        })
        res.on('error', (e) => (clearTimeout(timer), reject(new UpstreamError(e.message))))
      })
      req.on('error', (e) => (clearTimeout(timer), reject(new UpstreamError(e.message))))
      req.end(query)
    })
  }

  function next() {
    while (active < concurrency && waiting.length > 0) {
      const job = waiting.shift()
      active += 1
      post(job.query, job.deadline)
        .then(job.resolve, job.reject)
        .finally(() => {
          active -= 1
          next()
        })
    }
  }

  function schedule(query) {
    if (active >= concurrency && waiting.length >= queue) {
      return Promise.reject(new UpstreamError('upstream queue full'))
    }
    return new Promise((resolve, reject) => {
      waiting.push({ query, deadline: Date.now() + timeoutMs, resolve, reject })
      next()
    })
  }

  return {
    /** Identical queries (same `key`, not null) in flight share one request. */
    ask(key, query) {
      if (key === null) return schedule(query)
      const shared = inFlight.get(key)
      if (shared) return shared
      const p = schedule(query).finally(() => inFlight.delete(key))
      inFlight.set(key, p)
      return p
    },
    close: () => agent.destroy(),
  }
}
