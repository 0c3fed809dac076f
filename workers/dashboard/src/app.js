/**
 * @module The dashboard shell: login, zone picker, sections, the read-only state, a pending zone's
 * notice, and notices.
 */
import { useCallback, useEffect, useRef, useState } from 'preact/hooks'
import { PendingZone } from './activation.js'
import { api, session } from './api.js'
import { AuditView } from './audit.js'
import { html } from './html.js'
import { ImportExportView } from './import-export.js'
import { Login } from './login.js'
import { PropagationStatus } from './propagation.js'
import { QueryView } from './query.js'
import { RecordsView } from './records.js'
import { SettingsView } from './settings.js'
import { TokensView } from './tokens.js'
import { TransfersView } from './transfers.js'
import { Modal } from './ui.js'

const SECTIONS = [
  ['records', 'DNS records'],
  ['import', 'Import / export'],
  ['settings', 'Settings'],
  ['transfers', 'Zone transfers'],
  ['audit', 'Audit log'],
  ['tokens', 'API tokens'],
  ['query', 'Query'],
]

export function App() {
  const [token, setToken] = useState(session.token)
  if (!token) return html`<${Login} onLogin=${(t) => (session.set(t), setToken(t))} />`
  return html`<${Dashboard} onLogout=${() => (session.clear(), setToken(''))} />`
}

function Dashboard({ onLogout }) {
  const [zones, setZones] = useState(null)
  const [zone, setZone] = useState(null)
  const [section, setSection] = useState('records')
  // 'unknown' until probed, 'edit', or the API's refusal message (read-only token).
  const [access, setAccess] = useState('unknown')
  const [notice, setNotice] = useState(null)
  const [version, setVersion] = useState(0)
  const [addingZone, setAddingZone] = useState(false)
  const [loadError, setLoadError] = useState(null)
  const noticeTimer = useRef(0)
  const mainRef = useRef(null)

  const notify = useCallback((message, error = false) => {
    setNotice({ message, error })
    clearTimeout(noticeTimer.current)
    noticeTimer.current = setTimeout(() => setNotice(null), error ? 12000 : 6000)
  }, [])
  const onForbidden = useCallback((e) => setAccess(e.message), [])
  const onChanged = useCallback(() => setVersion((v) => v + 1), [])

  const loadZones = async (select) => {
    try {
      const { result } = await api('GET', '/zones?per_page=1000&order=name')
      setZones(result)
      setZone((z) => result.find((x) => x.id === (select ?? z?.id)) ?? result[0] ?? null)
    } catch (e) {
      if (e.status === 403 && e.errors[0]?.code === 9109) onLogout()
      setLoadError(e.message)
    }
  }
  useEffect(() => {
    loadZones()
  }, [])
  // An empty batch changes nothing but needs the DNS edit permission: it tells whether to offer editing.
  useEffect(() => {
    if (!zone) return
    setAccess('unknown')
    api('POST', `/zones/${zone.id}/dns_records/batch`, {})
      .then(() => setAccess('edit'))
      .catch((e) => setAccess(e.forbidden ? e.message : 'edit'))
  }, [zone?.id])
  const readOnly = access !== 'edit' ? (access === 'unknown' ? true : access) : null
  // A secondary zone's records come from its primaries: shown, exported, never edited here.
  const copied = zone?.type === 'secondary' && ['records', 'import'].includes(section)

  const pick = (id) => {
    setZone(zones.find((z) => z.id === id) ?? null)
    mainRef.current?.focus()
  }

  return html`<div class="shell">
    <a class="skip" href="#main">Skip to content</a>
    <header class="top">
      <span class="brand">edgedns</span>
      ${
        zones && zones.length > 0
          ? html`<div class="field inline zone-pick">
            <label for="zone-select">Zone</label>
            <select id="zone-select" value=${zone?.id ?? ''} onChange=${(ev) => pick(ev.currentTarget.value)}>
              ${zones.map((z) => html`<option value=${z.id}>${z.name}${z.status === 'pending' ? ' (pending)' : ''}</option>`)}
            </select>
          </div>`
          : null
      }
      <button type="button" onClick=${() => setAddingZone(true)}>Add zone</button>
      ${zone ? html`<${PropagationStatus} zone=${zone} version=${version} />` : null}
      <span class="spacer"></span>
      <a href="/client/v4/docs">API reference</a>
      <button type="button" onClick=${onLogout}>Sign out</button>
    </header>
    ${
      zone
        ? html`<nav class="tabs" aria-label="Zone sections">
          ${SECTIONS.map(([id, label]) => html`<button type="button" aria-current=${section === id ? 'page' : undefined} onClick=${() => setSection(id)}>${label}</button>`)}
        </nav>`
        : null
    }
    <main id="main" ref=${mainRef} tabindex="-1">
      ${loadError ? html`<p class="alert error" role="alert">${loadError}</p>` : null}
      ${
        typeof readOnly === 'string'
          ? html`<div class="alert warn" role="alert" data-testid="read-only">
            <strong>Read-only:</strong> this token may view ${zone?.name ?? 'this zone'} but not change it, so editing is hidden. (The API said: ${readOnly})
          </div>`
          : null
      }
      ${
        copied
          ? html`<div class="alert warn" data-testid="secondary-zone">
            <strong>Secondary zone:</strong> the records of ${zone.name} are copied from its primaries by zone transfer, so editing is hidden. Change them on the primary; see <button type="button" class="link" onClick=${() => setSection('transfers')}>Zone transfers</button>.
          </div>`
          : null
      }
      ${zone?.status === 'pending' ? html`<${PendingZone} key=${zone.id} zone=${zone} onActivated=${() => (loadZones(zone.id), onChanged(), notify(`${zone.name} is active and served.`))} />` : null}
      ${zones && zones.length === 0 ? html`<p>No zones yet. <button type="button" onClick=${() => setAddingZone(true)}>Add a zone</button></p>` : null}
      ${zone ? renderSection(section, { zone, readOnly: Boolean(readOnly), recordsReadOnly: Boolean(readOnly) || copied, onChanged, onForbidden, notify, version }) : null}
    </main>
    <div class=${`notice${notice ? ' show' : ''}${notice?.error ? ' error' : ''}`} role="status" aria-live="polite" data-testid="notice">${notice?.message ?? ''}</div>
    ${addingZone ? html`<${AddZone} onClose=${() => setAddingZone(false)} onAdded=${(z) => (setAddingZone(false), loadZones(z.id), notify(`Added zone ${z.name}.`))} />` : null}
  </div>`
}

function renderSection(section, props) {
  switch (section) {
    case 'records':
      return html`<${RecordsView} key=${props.zone.id} ...${props} readOnly=${props.recordsReadOnly} />`
    case 'import':
      return html`<${ImportExportView} key=${props.zone.id} ...${props} readOnly=${props.recordsReadOnly} />`
    case 'transfers':
      return html`<${TransfersView} key=${props.zone.id} ...${props} />`
    case 'settings':
      return html`<${SettingsView} key=${props.zone.id} ...${props} />`
    case 'audit':
      return html`<${AuditView} key=${props.zone.id} ...${props} />`
    case 'tokens':
      return html`<${TokensView} ...${props} />`
    case 'query':
      return html`<${QueryView} key=${props.zone.id} ...${props} />`
  }
}

function AddZone({ onClose, onAdded }) {
  const [name, setName] = useState('')
  const [type, setType] = useState('full')
  const [error, setError] = useState(null)
  async function submit(ev) {
    ev.preventDefault()
    try {
      const { result } = await api('POST', '/zones', { name: name.trim(), type })
      onAdded(result)
    } catch (e) {
      setError(e.message)
    }
  }
  return html`<${Modal} title="Add a zone" onClose=${onClose}>
    <form onSubmit=${submit}>
      <div class="field">
        <label for="zone-name">Zone name</label>
        <input id="zone-name" required placeholder="example.org" value=${name} onInput=${(ev) => setName(ev.currentTarget.value)} aria-invalid=${error ? 'true' : undefined} aria-describedby=${error ? 'zone-error' : undefined} />
        ${error ? html`<small id="zone-error" class="error" role="alert">${error}</small>` : null}
      </div>
      <fieldset>
        <legend>Zone type</legend>
        <label class="check"><input type="radio" name="zone-type" checked=${type === 'full'} onChange=${() => setType('full')} /> Primary: records edited here</label>
        <label class="check"><input type="radio" name="zone-type" checked=${type === 'secondary'} onChange=${() => setType('secondary')} /> Secondary: records copied from a primary by zone transfer</label>
      </fieldset>
      <div class="actions"><button type="submit" class="primary">Add zone</button><button type="button" onClick=${onClose}>Cancel</button></div>
    </form>
  <//>`
}
