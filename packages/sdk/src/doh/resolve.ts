/**
 * @module resolve(name, type): one RFC 8484 POST of a wire-format query, decoded answer back.
 */
import { EdgeDnsError } from '../errors.ts'
import type { Fetch } from '../http.ts'
import { decodeMessage, encodeQuery, type DnsMessage, type QueryOptions } from './message.ts'

const DNS_MESSAGE = 'application/dns-message'

export async function resolveOver(
  fetch: Fetch,
  url: string,
  name: string,
  type: string | number = 'A',
  opts: QueryOptions = {}
): Promise<DnsMessage> {
  const query = encodeQuery(name, type, opts)
  let res: Response
  try {
    res = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': DNS_MESSAGE, accept: DNS_MESSAGE },
      body: query,
    })
  } catch (e) {
    throw new EdgeDnsError({
      kind: 'network',
      status: 0,
      code: 0,
      message: `DoH POST ${url} failed: ${(e as Error).message ?? e}`,
    })
  }
  const body = new Uint8Array(await res.arrayBuffer())
  if (!res.ok) {
    throw new EdgeDnsError({
      kind: 'doh',
      status: res.status,
      code: 0,
      message: `DoH ${url} answered HTTP ${res.status}: ${new TextDecoder().decode(body).slice(0, 200)}`,
    })
  }
  try {
    return decodeMessage(body)
  } catch (e) {
    throw new EdgeDnsError({
      kind: 'doh',
      status: res.status,
      code: 0,
      message: `malformed DNS response: ${(e as Error).message}`,
    })
  }
}
