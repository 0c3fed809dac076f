/** @module Zone DNS settings: SOA values, NS TTL and proxy addresses (GET/PATCH dns_settings). */
import { useEffect, useState } from 'preact/hooks'
import { api } from './api.js'
import { html } from './html.js'
import { Field } from './ui.js'

const FIELDS = [
  { key: 'soa.mname', label: 'Primary name server (MNAME)', kind: 'text' },
  { key: 'soa.rname', label: 'Responsible mailbox (RNAME)', kind: 'text', hint: 'e.g. hostmaster.example.com' },
  { key: 'soa.refresh', label: 'Refresh (s)', kind: 'number', min: 0 },
  { key: 'soa.retry', label: 'Retry (s)', kind: 'number', min: 0 },
  { key: 'soa.expire', label: 'Expire (s)', kind: 'number', min: 0 },
  { key: 'soa.min_ttl', label: 'Negative-caching TTL (SOA minimum)', kind: 'number', min: 0 },
  { key: 'soa.ttl', label: 'SOA record TTL (s)', kind: 'number', min: 0 },
  { key: 'ns_ttl', label: 'NS record TTL (s)', kind: 'number', min: 0 },
  { key: 'proxy_addresses.ipv4', label: 'Proxy IPv4 addresses', kind: 'text', hint: 'comma-separated; proxied A records answer these' },
  { key: 'proxy_addresses.ipv6', label: 'Proxy IPv6 addresses', kind: 'text', hint: 'comma-separated; proxied AAAA records answer these' },
]

function toValues(s) {
  const v = { ns_ttl: String(s.ns_ttl), 'proxy_addresses.ipv4': s.proxy_addresses.ipv4.join(', '), 'proxy_addresses.ipv6': s.proxy_addresses.ipv6.join(', ') }
  for (const [k, x] of Object.entries(s.soa)) v[`soa.${k}`] = String(x)
  return v
}

function toBody(v) {
  const list = (s) => s.split(',').map((x) => x.trim()).filter(Boolean)
  const soa = {}
  for (const f of FIELDS.filter((f) => f.key.startsWith('soa.'))) soa[f.key.slice(4)] = f.kind === 'number' ? Number(v[f.key]) : v[f.key].trim()
  return { soa, ns_ttl: Number(v.ns_ttl), proxy_addresses: { ipv4: list(v['proxy_addresses.ipv4']), ipv6: list(v['proxy_addresses.ipv6']) } }
}

/** The field a validation message is about: the first field key whose path it mentions. */
function errorsByField(failure) {
  const out = {}
  for (const e of failure.errors) {
    const f = FIELDS.find((f) => e.message.includes(f.key) || e.message.includes(f.key.split('.').pop()))
    const key = f ? f.key : '_form'
    out[key] = out[key] ? `${out[key]}; ${e.message}` : e.message
  }
  return out
}

export function SettingsView({ zone, readOnly, onForbidden, notify }) {
  const [values, setValues] = useState(null)
  const [errors, setErrors] = useState({})
  const [loadError, setLoadError] = useState(null)
  useEffect(() => {
    api('GET', `/zones/${zone.id}/dns_settings`)
      .then(({ result }) => setValues(toValues(result)))
      .catch((e) => setLoadError(e.message))
  }, [zone.id])

  async function save(ev) {
    ev.preventDefault()
    setErrors({})
    try {
      const { result } = await api('PATCH', `/zones/${zone.id}/dns_settings`, toBody(values))
      setValues(toValues(result))
      notify('Zone settings saved.')
    } catch (e) {
      if (e.forbidden) onForbidden(e)
      setErrors(errorsByField(e))
    }
  }

  if (loadError) return html`<p class="alert error" role="alert">${loadError}</p>`
  if (!values) return html`<p aria-busy="true">Loading settings…</p>`
  return html`<section aria-labelledby="settings-heading">
    <h2 id="settings-heading">Zone settings</h2>
    <form class="settings-form" onSubmit=${save} novalidate>
      <fieldset disabled=${readOnly}>
        <legend>SOA, NS TTL and proxy addresses of ${zone.name}</legend>
        <div class="grid">
          ${FIELDS.map((f) => html`<${Field} field=${f} value=${values[f.key]} error=${errors[f.key]} onInput=${(k, v) => setValues((s) => ({ ...s, [k]: v }))} />`)}
        </div>
      </fieldset>
      ${errors._form ? html`<p class="alert error" role="alert">${errors._form}</p>` : null}
      ${readOnly ? null : html`<div class="actions"><button type="submit" class="primary">Save settings</button></div>`}
    </form>
  </section>`
}
