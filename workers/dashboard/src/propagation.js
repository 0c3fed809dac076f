/**
 * @module Propagation of the zone's latest change: committed change-log sequence vs built into
 * Workers KV. Polls while a change is still being built; a pending zone is not built at all.
 */
import { useEffect, useState } from 'preact/hooks'
import { api } from './api.js'
import { html } from './html.js'

export function PropagationStatus({ zone, version }) {
  const [state, setState] = useState(null)
  const [tick, setTick] = useState(0)
  useEffect(() => {
    let cancelled = false
    let timer
    api('GET', `/zones/${zone.id}/propagation`)
      .then(({ result }) => {
        if (cancelled) return
        setState(result)
        if (result.status !== 'pending' && result.built_seq < result.committed_seq)
          timer = setTimeout(() => setTick((t) => t + 1), 1000)
      })
      .catch(() => !cancelled && setState(null))
    return () => ((cancelled = true), clearTimeout(timer))
  }, [zone.id, version, tick])

  if (!state) return null
  if (state.status === 'pending')
    return html`<span class="pill behind" role="status" title=${state.message ?? ''} data-testid="propagation">Pending · not served</span>`
  const behind = state.built_seq < state.committed_seq
  const title = `Committed change ${state.committed_seq}, built ${state.built_seq}${state.built_at ? ` at ${state.built_at}` : ''}`
  return html`<span class=${`pill${behind ? ' behind' : ' live'}${state.last_error ? ' failed' : ''}`} role="status" title=${title} data-testid="propagation">
    ${behind ? `Propagating: built ${state.built_seq} of ${state.committed_seq} (${Math.round(state.lag_ms / 100) / 10} s)` : `Live · change ${state.committed_seq} built`}
    ${state.last_error ? ` · last build error: ${state.last_error.message}` : ''}
  </span>`
}
