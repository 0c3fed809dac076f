/** @module Zone DNS settings: SOA values, NS TTL and proxy addresses (GET/PATCH dns_settings). */
import { useEffect, useState } from 'preact/hooks'
import { api } from './api.js'
import { html } from './html.js'
import { FIELDS, settingsErrors, toBody, toValues } from './settings-form.js'
import { Field } from './ui.js'

export function SettingsView({ zone, readOnly, onForbidden, notify }) {
  const [values, setValues] = useState(null)
  const [errors, setErrors] = useState({})
  const [loadError, setLoadError] = useState(null)
  const secondary = zone.type === 'secondary'
  useEffect(() => {
    api('GET', `/zones/${zone.id}/dns_settings`)
      .then(({ result }) => setValues(toValues(result)))
      .catch((e) => setLoadError(e.message))
  }, [zone.id])

  async function save(ev) {
    ev.preventDefault()
    setErrors({})
    try {
      const body = toBody(values)
      // A secondary zone's SOA is its primary's: the API refuses SOA values for it.
      if (secondary) delete body.soa
      const { result } = await api('PATCH', `/zones/${zone.id}/dns_settings`, body)
      setValues(toValues(result))
      notify('Zone settings saved.')
    } catch (e) {
      if (e.forbidden) onForbidden(e)
      setErrors(settingsErrors(e))
    }
  }

  if (loadError) return html`<p class="alert error" role="alert">${loadError}</p>`
  if (!values) return html`<p aria-busy="true">Loading settings…</p>`
  return html`<section aria-labelledby="settings-heading">
    <h2 id="settings-heading">Zone settings</h2>
    <form class="settings-form" onSubmit=${save} novalidate>
      <fieldset disabled=${readOnly}>
        <legend>SOA, NS TTL and proxy addresses of ${zone.name}</legend>
        ${secondary ? html`<p class="hint" data-testid="soa-from-primary">${zone.name} is a secondary zone: its SOA is its primary’s, copied by zone transfer.</p>` : null}
        <div class="grid">
          ${FIELDS.map((f) => html`<${Field} field=${f} value=${values[f.key]} error=${errors[f.key]} disabled=${secondary && f.key.startsWith('soa.')} onInput=${(k, v) => setValues((s) => ({ ...s, [k]: v }))} />`)}
        </div>
      </fieldset>
      ${errors._form ? html`<p class="alert error" role="alert">${errors._form}</p>` : null}
      ${readOnly ? null : html`<div class="actions"><button type="submit" class="primary">Save settings</button></div>`}
    </form>
  </section>`
}
