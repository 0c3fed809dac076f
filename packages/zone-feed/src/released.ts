/**
 * @module An RPC result released at once. Feed replies are plain data, but a Workers RPC result
 * keeps its resources until it is disposed (and the runtime warns when it never is); disposing a
 * result of plain data leaves its fields readable.
 */
export function released<T extends object>(result: T): T {
  ;(result as { [Symbol.dispose]?: () => void })[Symbol.dispose]?.()
  return result
}
