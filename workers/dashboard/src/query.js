/** @module Resolve a name through the DoH endpoint (JSON API), as a resolver would see the zone. */
import { useState } from 'preact/hooks'
import { html } from './html.js'

export function QueryView({ zone }) {
  const [name, setName] = useState(`www.${zone.name}`)
  const [type, setType] = useState('A')
  const [answer, setAnswer] = useState(null)
  async function run(ev) {
    ev.preventDefault()
    const q = new URLSearchParams({ name: name.trim(), type: type.trim() || 'A' })
    const res = await fetch(`/dns-query?${q}`, { headers: { accept: 'application/dns-json' } })
    setAnswer(
      res.ok ? JSON.stringify(await res.json(), null, 2) : `HTTP ${res.status}: ${await res.text()}`
    )
  }
  return html`<section aria-labelledby="query-heading">
    <h2 id="query-heading">Query over DNS-over-HTTPS</h2>
    <form class="toolbar" onSubmit=${run}>
      <div class="field inline"><label for="q-name">Name</label><input id="q-name" value=${name} onInput=${(ev) => setName(ev.currentTarget.value)} /></div>
      <div class="field inline"><label for="q-type">Type</label><input id="q-type" size="8" value=${type} onInput=${(ev) => setType(ev.currentTarget.value)} /></div>
      <button type="submit" class="primary">Resolve</button>
    </form>
    ${answer ? html`<pre class="card mono" aria-label="Answer" role="status">${answer}</pre>` : null}
  </section>`
}
