/**
 * @module Zone transfers: a secondary zone's incoming settings (its primaries, refresh, the copy it
 * holds, what the copy lacks, an AXFR now) or a primary zone's outgoing ones (the secondaries
 * notified, enabled or not, a NOTIFY now), and the account's keys, peers and ACLs below them.
 */
import { useEffect, useState } from 'preact/hooks'
import { api } from './api.js'
import { html } from './html.js'
import {
  duration,
  failedText,
  incomingBody,
  incomingValues,
  outgoingBody,
  servingText,
  skippedLines,
  transferErrors,
} from './transfer-forms.js'
import { PeerPicker } from './peer-picker.js'
import { AccountTransferLists } from './transfer-lists.js'
import { Field, Modal } from './ui.js'

const LISTS = ['tsigs', 'peers', 'acls']
const REFRESH = {
  key: 'auto_refresh_seconds',
  label: 'Refresh (s)',
  kind: 'number',
  min: 300,
  max: 604800,
  hint: 'how often the primary’s SOA is checked when no NOTIFY comes (300–604,800)',
}
const when = (t) => (t ? html`<time datetime=${t}>${new Date(t).toLocaleString()}</time>` : 'never')

export function TransfersView({ zone, readOnly, onForbidden, notify, onChanged }) {
  const [lists, setLists] = useState(null)
  const [listError, setListError] = useState(null)
  // The account's routes need a permission on the whole account: a refusal there locks only them.
  const [accountRefusal, setAccountRefusal] = useState(null)
  const account = zone.account
  const reload = async () => {
    try {
      const results = await Promise.all(
        LISTS.map((l) => api('GET', `/accounts/${account.id}/secondary_dns/${l}`))
      )
      setLists(Object.fromEntries(LISTS.map((l, i) => [l, results[i].result])))
      setListError(null)
    } catch (e) {
      setLists({ tsigs: [], peers: [], acls: [] })
      setListError(e.message)
    }
  }
  useEffect(() => {
    reload()
  }, [account.id])

  if (!lists) return html`<p aria-busy="true">Loading zone transfers…</p>`
  // Peers unknown (null) when the token cannot list them: the pickers show the ids they hold.
  const peers = listError ? null : lists.peers
  const props = { zone, peers, readOnly, onForbidden, notify, onChanged }
  const accountForbidden = (e) => (setAccountRefusal(e.message), notify(e.message, true))
  return html`<section aria-labelledby="transfers-heading">
    <h2 id="transfers-heading">Zone transfers</h2>
    ${zoneCard(zone, props)}
    ${
      listError
        ? html`<p class="alert warn" role="alert">The account’s keys, peers and ACLs cannot be read with this token: ${listError}</p>`
        : html`${accountRefusal ? html`<p class="alert warn" role="alert" data-testid="account-read-only">This token may not change the account’s keys, peers, ACLs or catalog: ${accountRefusal}</p>` : null}
          <${AccountTransferLists} account=${account} lists=${lists} reload=${reload} readOnly=${readOnly || Boolean(accountRefusal)} notify=${notify} onForbidden=${accountForbidden} />`
    }
  </section>`
}

/** The zone's own transfers: incoming for a secondary zone, outgoing for a primary one. */
function zoneCard(zone, props) {
  if (zone.type === 'secondary') return html`<${IncomingCard} ...${props} />`
  if (zone.type === 'full' || zone.type === 'partial') return html`<${OutgoingCard} ...${props} />`
  return html`<p class="card">${zone.name} is an ${zone.type} zone: it is not transferred.</p>`
}

/** One zone settings resource: loads it (404: none yet), saves it (POST or PUT), deletes it. */
function useSettings(zone, which) {
  const path = `/zones/${zone.id}/secondary_dns/${which}`
  const [settings, setSettings] = useState(undefined)
  const [loadError, setLoadError] = useState(null)
  const load = () =>
    api('GET', path)
      .then(({ result }) => setSettings(result))
      .catch((e) => (e.status === 404 ? setSettings(null) : setLoadError(e.message)))
  useEffect(() => {
    load()
  }, [zone.id])
  return { path, settings, setSettings, loadError, load }
}

/** Messages the API adds to a success (a warning about DNSSEC, say), for the notice. */
const withMessages = (text, envelope) =>
  [text, ...(envelope.messages ?? []).map((m) => m.message)].join(' ')

function SettingsForm({ s, body, keys, picker, extra, readOnly, notify, onForbidden, saved }) {
  const [errors, setErrors] = useState({})
  async function save(ev) {
    ev.preventDefault()
    setErrors({})
    try {
      const env = await api(s.settings ? 'PUT' : 'POST', s.path, body())
      s.setSettings(env.result)
      notify(withMessages(saved, env))
      await s.load() // a GET also says how the zone's checks stand
    } catch (e) {
      if (e.forbidden) onForbidden(e)
      setErrors(transferErrors(e, keys))
    }
  }
  return html`<form onSubmit=${save} novalidate>
    <fieldset disabled=${readOnly}>
      ${picker(errors.peers)}
      ${extra?.(errors)}
    </fieldset>
    ${errors._form ? html`<p class="alert error" role="alert">${errors._form}</p>` : null}
    ${readOnly ? null : html`<div class="actions"><button type="submit" class="primary">${s.settings ? 'Save' : 'Set up'}</button></div>`}
  </form>`
}

function RemoveButton({ s, what, notify, onForbidden }) {
  const [asking, setAsking] = useState(false)
  async function remove() {
    try {
      await api('DELETE', s.path)
      setAsking(false)
      s.setSettings(null)
      notify(`Removed the ${what}.`)
    } catch (e) {
      if (e.forbidden) onForbidden(e)
      setAsking(false)
      notify(e.message, true)
    }
  }
  return html`<button type="button" class="danger" onClick=${() => setAsking(true)}>Remove ${what}</button>
    ${
      asking
        ? html`<${Modal} title=${`Remove the ${what}?`} onClose=${() => setAsking(false)}>
          <p>The zone keeps its records; transfers stop until it is set up again.</p>
          <div class="actions"><button type="button" class="danger" onClick=${remove}>Remove</button><button type="button" onClick=${() => setAsking(false)}>Cancel</button></div>
        <//>`
        : null
    }`
}

function IncomingCard({ zone, peers, readOnly, onForbidden, notify, onChanged }) {
  const s = useSettings(zone, 'incoming')
  const [values, setValues] = useState(incomingValues(null))
  const [pulling, setPulling] = useState(false)
  // The form follows the saved settings, not every reload (unsaved edits survive Transfer now).
  const saved = JSON.stringify(incomingValues(s.settings))
  useEffect(() => setValues(JSON.parse(saved)), [saved])

  async function pull() {
    setPulling(true)
    try {
      await api('POST', `/zones/${zone.id}/secondary_dns/force_axfr`)
      notify(`Transferred ${zone.name} by AXFR.`)
      onChanged()
    } catch (e) {
      if (e.forbidden) onForbidden(e)
      notify(e.message, true)
    } finally {
      setPulling(false)
      await s.load() // the copy held, or how the checks failed
    }
  }

  if (s.loadError) return html`<p class="alert error" role="alert">${s.loadError}</p>`
  if (s.settings === undefined) return html`<p aria-busy="true">Loading…</p>`
  const held = s.settings
  const skipped = skippedLines(held?.skipped_records)
  return html`<section class="card" aria-labelledby="incoming-heading">
    <h3 id="incoming-heading">Incoming transfers</h3>
    <p class="hint">${zone.name} is a secondary zone: its records are copied from its primaries by AXFR and IXFR, and cannot be edited here.</p>
    ${
      held
        ? html`<dl class="facts">
          <dt>Copy held</dt><dd data-testid="copy-serial">${held.soa_serial === undefined ? 'none yet: no transfer has completed' : `serial ${held.soa_serial}`}</dd>
          <dt>Serving</dt><dd data-testid="serving">${servingText(held)}</dd>
          <dt>Last confirmed by a primary</dt><dd>${when(held.checked_time)}</dd>
          <dt>Refresh</dt><dd>every ${duration(held.auto_refresh_seconds)} without a NOTIFY</dd>
          ${held.next_check_time ? html`<dt>Next check</dt><dd>${when(held.next_check_time)}</dd>` : null}
          ${held.expires_time ? html`<dt>${held.serving ? 'Expires unless a primary confirms it' : 'Expired'}</dt><dd data-testid="expires">${when(held.expires_time)}</dd>` : null}
        </dl>`
        : html`<p>No incoming transfers are set up: pick the zone’s primaries to start.</p>`
    }
    ${
      held?.last_error
        ? html`<p class="alert error" data-testid="last-error">${failedText(held)}</p>`
        : null
    }
    ${
      skipped.length
        ? html`<div class="alert warn" data-testid="skipped-records"><p>Records the primary holds that the copy lacks (not served here):</p><ul>${skipped.map((l) => html`<li>${l}</li>`)}</ul></div>`
        : null
    }
    <${SettingsForm}
      s=${s}
      body=${() => incomingBody(zone, values)}
      keys=${['peers', 'auto_refresh_seconds']}
      readOnly=${readOnly}
      notify=${notify}
      onForbidden=${onForbidden}
      saved="Incoming transfer settings saved."
      picker=${(error) => html`<${PeerPicker} legend="Primaries, asked in order" peers=${peers} chosen=${values.peers} ordered=${true} error=${error} onChange=${(p) => setValues((v) => ({ ...v, peers: p }))} />`}
      extra=${(errors) => html`<${Field} field=${REFRESH} value=${values.auto_refresh_seconds} error=${errors.auto_refresh_seconds} onInput=${(k, v) => setValues((x) => ({ ...x, [k]: v }))} />`}
    />
    ${
      held && !readOnly
        ? html`<div class="actions">
          <button type="button" onClick=${pull} disabled=${pulling} aria-busy=${pulling ? 'true' : undefined}>${pulling ? 'Transferring…' : 'Transfer now (AXFR)'}</button>
          <${RemoveButton} s=${s} what="incoming transfer settings" notify=${notify} onForbidden=${onForbidden} />
        </div>`
        : null
    }
  </section>`
}

function OutgoingCard({ zone, peers, readOnly, onForbidden, notify }) {
  const s = useSettings(zone, 'outgoing')
  const [chosen, setChosen] = useState([])
  const [status, setStatus] = useState(null)
  const saved = JSON.stringify(s.settings?.peers ?? [])
  useEffect(() => setChosen(JSON.parse(saved)), [saved])
  useEffect(() => {
    api('GET', `/zones/${zone.id}/secondary_dns/outgoing/status`)
      .then(({ result }) => setStatus(result))
      .catch(() => setStatus(null))
  }, [zone.id, s.settings])

  const act = (path, done) => async () => {
    try {
      const env = await api('POST', `/zones/${zone.id}/secondary_dns/outgoing/${path}`)
      if (path !== 'force_notify') setStatus(env.result)
      notify(withMessages(done, env))
    } catch (e) {
      if (e.forbidden) onForbidden(e)
      notify(e.message, true)
    }
  }

  if (s.loadError) return html`<p class="alert error" role="alert">${s.loadError}</p>`
  if (s.settings === undefined) return html`<p aria-busy="true">Loading…</p>`
  const out = s.settings
  const enabled = status === 'Enabled'
  return html`<section class="card" aria-labelledby="outgoing-heading">
    <h3 id="outgoing-heading">Outgoing transfers</h3>
    <p class="hint">Secondaries may transfer ${zone.name} by AXFR and IXFR, signed with their peer’s TSIG key and from an address an ACL allows; the peers picked here get a NOTIFY after every change.</p>
    ${
      out
        ? html`<dl class="facts">
          <dt>Status</dt><dd><span class=${`pill${enabled ? ' live' : ' behind'}`} data-testid="outgoing-status">${status ?? '…'}</span></dd>
          <dt>SOA serial</dt><dd>${out.soa_serial ?? '—'}</dd>
          <dt>Last transferred</dt><dd>${when(out.last_transferred_time)}</dd>
        </dl>`
        : html`<p>No outgoing transfers are set up. Set them up, then enable them.</p>`
    }
    <${SettingsForm}
      s=${s}
      body=${() => outgoingBody(zone, { peers: chosen })}
      keys=${['peers']}
      readOnly=${readOnly}
      notify=${notify}
      onForbidden=${onForbidden}
      saved="Outgoing transfer settings saved."
      picker=${(error) => html`<${PeerPicker} legend="Secondaries to notify" peers=${peers} chosen=${chosen} error=${error} onChange=${setChosen} />`}
    />
    ${
      out && !readOnly
        ? html`<div class="actions">
          ${enabled ? html`<button type="button" onClick=${act('disable', 'Outgoing transfers disabled.')}>Disable</button>` : html`<button type="button" class="primary" onClick=${act('enable', 'Outgoing transfers enabled.')}>Enable</button>`}
          <button type="button" onClick=${act('force_notify', 'NOTIFY sent to the secondaries.')} disabled=${!enabled}>Send NOTIFY now</button>
          <${RemoveButton} s=${s} what="outgoing transfer settings" notify=${notify} onForbidden=${onForbidden} />
        </div>`
        : null
    }
  </section>`
}
