/**
 * @module Lets other work of the runtime run between a step's stretches of work. Locally the
 * builder shares workerd's one thread with the API and the DoH worker, and the runtime takes up a
 * new request on a socket only when the work in process pauses: a timer turn is such a pause,
 * an awaited call to local storage is not.
 */
export function yieldToRuntime(): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, 0))
}
