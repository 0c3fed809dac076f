/**
 * @module Page-number auto-pagination as an async iterator: requests page 1, 2, … until a page is
 * short, empty, or the last one by result_info.
 */
import type { Envelope } from './http.ts'

export async function* paginate<T>(
  fetchPage: (page: number) => Promise<Envelope<T[]>>
): AsyncGenerator<T, void, undefined> {
  for (let page = 1; ; page++) {
    const env = await fetchPage(page)
    for (const item of env.result) yield item
    const info = env.result_info
    if (env.result.length === 0) return
    if (info && (page >= info.total_pages || env.result.length < info.per_page)) return
  }
}

/** Collects an async iterable into an array. */
export async function collect<T>(it: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = []
  for await (const x of it) out.push(x)
  return out
}
