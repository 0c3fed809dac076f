/**
 * @module The account's catalog zone (RFC 9432, /accounts/{id}/secondary_dns/catalog): a zone
 * listing the account's primary zones that secondaries may transfer, so a secondary that
 * transfers it adds and drops those zones by itself. Set up, changed, turned off or removed here.
 */
import { useEffect, useState } from 'preact/hooks'
import { api } from './api.js'
import { html } from './html.js'
import { PeerPicker } from './peer-picker.js'
import { transferErrors } from './transfer-forms.js'
import { Field, Modal } from './ui.js'

const NAME = {
  key: 'name',
  label: 'Catalog zone name',
  kind: 'text',
  hint: 'a name you will not host, e.g. catalog.example.net',
}

export function CatalogCard({ account, peers, readOnly, notify, onForbidden }) {
  const path = `/accounts/${account.id}/secondary_dns/catalog`
  const [catalog, setCatalog] = useState(undefined) // null: none
  const [values, setValues] = useState({ name: '', peers: [], enabled: true })
  const [errors, setErrors] = useState({})
  const [removing, setRemoving] = useState(false)
  const [loadError, setLoadError] = useState(null)
  useEffect(() => {
    api('GET', path)
      .then(({ result }) => setCatalog(result))
      .catch((e) => (e.status === 404 ? setCatalog(null) : setLoadError(e.message)))
  }, [account.id])
  useEffect(() => {
    if (catalog) setValues({ name: catalog.name, peers: catalog.peers, enabled: catalog.enabled })
  }, [catalog])

  async function save(ev) {
    ev.preventDefault()
    setErrors({})
    try {
      const { result } = await api('PUT', path, { ...values, name: values.name.trim() })
      setCatalog(result)
      notify(`Catalog zone ${result.name} saved.`)
    } catch (e) {
      if (e.forbidden) onForbidden(e)
      setErrors(transferErrors(e, ['name', 'peers']))
    }
  }
  async function remove() {
    try {
      await api('DELETE', path)
      setRemoving(false)
      setCatalog(null)
      setValues({ name: '', peers: [], enabled: true })
      notify('Catalog zone removed.')
    } catch (e) {
      if (e.forbidden) onForbidden(e)
      setRemoving(false)
      notify(e.message, true)
    }
  }

  if (loadError) return html`<p class="alert warn" role="alert">${loadError}</p>`
  if (catalog === undefined) return null
  return html`<div class="transfer-list" role="group" aria-labelledby="catalog-heading">
    <h4 id="catalog-heading">Catalog zone</h4>
    <p class="hint">Lists the account’s primary zones with outgoing transfers enabled (RFC 9432): a secondary that transfers it adds and drops those zones by itself.</p>
    ${
      catalog
        ? html`<dl class="facts">
          <dt>Status</dt><dd><span class=${`pill${catalog.enabled ? ' live' : ' behind'}`} data-testid="catalog-status">${catalog.enabled ? 'Served' : 'Off'}</span></dd>
          <dt>SOA serial</dt><dd>${catalog.soa_serial ?? '—'}</dd>
        </dl>`
        : null
    }
    <form onSubmit=${save} novalidate>
      <fieldset disabled=${readOnly}>
        <${Field} field=${NAME} value=${values.name} error=${errors.name} idPrefix="catalog" onInput=${(k, v) => setValues((s) => ({ ...s, [k]: v }))} />
        <${PeerPicker} legend="Secondaries that transfer it (and get its NOTIFY)" peers=${peers} chosen=${values.peers} error=${errors.peers} onChange=${(p) => setValues((s) => ({ ...s, peers: p }))} />
        <label class="check"><input type="checkbox" checked=${values.enabled} onChange=${(ev) => setValues((s) => ({ ...s, enabled: ev.currentTarget.checked }))} /> Serve the catalog</label>
      </fieldset>
      ${errors._form ? html`<p class="alert error" role="alert">${errors._form}</p>` : null}
      ${
        readOnly
          ? null
          : html`<div class="actions">
            <button type="submit" class="primary">${catalog ? 'Save catalog' : 'Set up catalog'}</button>
            ${catalog ? html`<button type="button" class="danger" onClick=${() => setRemoving(true)}>Remove catalog</button>` : null}
          </div>`
      }
    </form>
    ${
      removing
        ? html`<${Modal} title="Remove the catalog zone?" onClose=${() => setRemoving(false)}>
          <p>Secondaries provisioned through it stop learning of new zones, and may drop the zones it listed.</p>
          <div class="actions"><button type="button" class="danger" onClick=${remove}>Remove</button><button type="button" onClick=${() => setRemoving(false)}>Cancel</button></div>
        <//>`
        : null
    }
  </div>`
}
