/**
 * @module A pending zone's notice: it is not served until its ownership is proven; the TXT record
 * to publish (name and value), the name servers to delegate to, and the activation check.
 */
import { useState } from 'preact/hooks'
import { activationOutcome, pendingInstructions } from './activation-logic.js'
import { api } from './api.js'
import { html } from './html.js'

export function PendingZone({ zone, onActivated }) {
  const [checking, setChecking] = useState(false)
  const [result, setResult] = useState(null)
  const how = pendingInstructions(zone)
  if (!how) return null

  async function check() {
    setChecking(true)
    setResult(null)
    try {
      const outcome = activationOutcome(await api('PUT', `/zones/${zone.id}/activation_check`))
      if (outcome.activated) onActivated()
      else setResult({ error: false, message: outcome.message })
    } catch (e) {
      setResult({ error: true, message: e.message })
    } finally {
      setChecking(false)
    }
  }

  return html`<section class="alert warn pending-zone" aria-labelledby="pending-heading" data-testid="pending-zone">
    <h2 id="pending-heading">${zone.name} is pending</h2>
    <p>It is not served until you prove that you control the name. Publish this TXT record where the domain is served today, then check:</p>
    <dl>
      <dt>Name</dt><dd><code data-testid="txt-name">${how.txtName}</code></dd>
      <dt>Type</dt><dd><code>TXT</code></dd>
      <dt>Value</dt><dd><code data-testid="txt-value">${how.txtValue}</code></dd>
    </dl>
    <p>Or delegate ${zone.name} to ${how.nameServers.join(', ')} (proves it only while no other account has the name pending).</p>
    <button type="button" class="primary" disabled=${checking} onClick=${check}>${checking ? 'Checking…' : 'Check now'}</button>
    ${result ? html`<p role="status" class=${result.error ? 'error' : undefined} data-testid="activation-result">${result.message}</p>` : null}
  </section>`
}
