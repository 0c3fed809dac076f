/**
 * @module The account's zone transfer lists (TSIG keys, peers, ACLs): a table each, with add, edit
 * and delete through /accounts/{id}/secondary_dns, and its catalog zone. Shared by every zone of the
 * account.
 */
import { useState } from 'preact/hooks'
import { api } from './api.js'
import { html } from './html.js'
import { CatalogCard } from './transfer-catalog.js'
import { ACCOUNT_LISTS, transferErrors } from './transfer-forms.js'
import { Field, Modal } from './ui.js'

/** `lists`: {tsigs, peers, acls} as the API lists them; `reload()` reads them again. */
export function AccountTransferLists({ account, lists, reload, readOnly, notify, onForbidden }) {
  return html`<section class="card" aria-labelledby="account-transfers-heading">
    <h3 id="account-transfers-heading">Keys, peers, ACLs and the catalog</h3>
    <p class="hint">Of account ${account.name}: shared by every zone of the account.</p>
    ${ACCOUNT_LISTS.map(
      (kind) =>
        html`<${TransferList} key=${kind.path} kind=${kind} account=${account} lists=${lists} reload=${reload} readOnly=${readOnly} notify=${notify} onForbidden=${onForbidden} />`
    )}
    <${CatalogCard} account=${account} peers=${lists.peers} readOnly=${readOnly} notify=${notify} onForbidden=${onForbidden} />
  </section>`
}

function TransferList({ kind, account, lists, reload, readOnly, notify, onForbidden }) {
  const [editing, setEditing] = useState(null) // {item?} while the form is open
  const [deleting, setDeleting] = useState(null)
  const items = lists[kind.path]
  const base = `/accounts/${account.id}/secondary_dns/${kind.path}`
  const headingId = `list-${kind.path}`

  async function remove() {
    try {
      await api('DELETE', `${base}/${deleting.id}`)
      notify(`Deleted ${kind.one} ${deleting.name}.`)
      setDeleting(null)
      await reload()
    } catch (e) {
      if (e.forbidden) onForbidden(e)
      setDeleting(null)
      notify(e.message, true)
    }
  }

  return html`<div class="transfer-list" role="group" aria-labelledby=${headingId}>
    <div class="section-head">
      <h4 id=${headingId}>${kind.title}</h4>
      ${readOnly ? null : html`<button type="button" onClick=${() => setEditing({})}>Add ${kind.one}</button>`}
    </div>
    <p class="hint">${kind.intro}</p>
    <div class="table-wrap"><table aria-labelledby=${headingId}>
      <thead><tr>${kind.columns.map(([h]) => html`<th>${h}</th>`)}${readOnly ? null : html`<th><span class="visually-hidden">Actions</span></th>`}</tr></thead>
      <tbody>
        ${items.length === 0 ? html`<tr><td colspan=${kind.columns.length + 1} class="empty">None yet.</td></tr>` : null}
        ${items.map(
          (item) => html`<tr>
            ${kind.columns.map(([, cell]) => html`<td>${cell(item, lists)}</td>`)}
            ${
              readOnly
                ? null
                : html`<td class="row-actions">
                  <button type="button" class="link" aria-label=${`Edit ${kind.one} ${item.name}`} onClick=${() => setEditing({ item })}>Edit</button>
                  <button type="button" class="link" aria-label=${`Delete ${kind.one} ${item.name}`} onClick=${() => setDeleting(item)}>Delete</button>
                </td>`
            }
          </tr>`
        )}
      </tbody>
    </table></div>
    ${editing ? html`<${ItemForm} kind=${kind} base=${base} item=${editing.item} lists=${lists} onClose=${() => setEditing(null)} onSaved=${async (saved) => (setEditing(null), notify(`Saved ${kind.one} ${saved.name}.`), await reload())} onForbidden=${onForbidden} />` : null}
    ${
      deleting
        ? html`<${Modal} title=${`Delete ${kind.one} ${deleting.name}?`} onClose=${() => setDeleting(null)}>
          <p>Zones and peers that use it must stop using it first; the API refuses otherwise and says which.</p>
          <div class="actions"><button type="button" class="danger" onClick=${remove}>Delete ${kind.one}</button><button type="button" onClick=${() => setDeleting(null)}>Cancel</button></div>
        <//>`
        : null
    }
  </div>`
}

function ItemForm({ kind, base, item, lists, onClose, onSaved, onForbidden }) {
  const [values, setValues] = useState(() => kind.toValues(item))
  const [errors, setErrors] = useState({})
  const fields = kind.fields(lists)
  async function save(ev) {
    ev.preventDefault()
    setErrors({})
    try {
      const body = kind.toBody(values)
      const { result } = item
        ? await api('PUT', `${base}/${item.id}`, body)
        : await api('POST', base, body)
      await onSaved(result)
    } catch (e) {
      if (e.forbidden) onForbidden(e)
      setErrors(
        transferErrors(
          e,
          fields.map((f) => f.key)
        )
      )
    }
  }
  return html`<${Modal} title=${item ? `Edit ${kind.one} ${item.name}` : `Add a ${kind.one}`} onClose=${onClose}>
    <form onSubmit=${save} novalidate>
      ${fields.map((f) => html`<${Field} field=${f} value=${values[f.key]} error=${errors[f.key]} idPrefix=${kind.path} onInput=${(k, v) => setValues((s) => ({ ...s, [k]: v }))} />`)}
      ${errors._form ? html`<p class="alert error" role="alert">${errors._form}</p>` : null}
      <div class="actions"><button type="submit" class="primary">Save ${kind.one}</button><button type="button" onClick=${onClose}>Cancel</button></div>
    </form>
  <//>`
}
