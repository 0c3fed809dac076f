/**
 * @module The records table: server-side pagination, sort, search and type filter; multi-select
 * with bulk actions applied as one batch; inline edit; proxy toggle; add/edit form.
 */
import { useCallback, useEffect, useLayoutEffect, useRef, useState } from 'preact/hooks'
import { api } from './api.js'
import { describeBatchErrors, planBulk, ttlText } from './bulk-plan.js'
import { fieldErrors } from './field-errors.js'
import { html } from './html.js'
import { RecordForm } from './record-form.js'
import { fieldsFor, RECORD_TYPES, relativeName, showsPriority } from './record-types.js'
import { ErrorList, Modal, Pager } from './ui.js'

const SORTABLE = [
  ['type', 'Type'],
  ['name', 'Name'],
  ['content', 'Content'],
  ['ttl', 'TTL'],
  ['proxied', 'Proxy status'],
]
const PAGE_SIZES = [25, 50, 100, 250]

export function RecordsView({ zone, readOnly, onChanged, onForbidden, notify }) {
  const [query, setQuery] = useState({
    search: '',
    type: '',
    order: 'type',
    direction: 'asc',
    page: 1,
    perPage: 50,
  })
  const [searchText, setSearchText] = useState('')
  const [data, setData] = useState({ records: [], info: null })
  const [loading, setLoading] = useState(false)
  const [loadError, setLoadError] = useState(null)
  const [selected, setSelected] = useState(() => new Map())
  const [editingId, setEditingId] = useState(null)
  const [form, setForm] = useState(null) // { record } | { record: null } when open
  const [plan, setPlan] = useState(null)
  const [bulkErrors, setBulkErrors] = useState(null)
  const [ttl, setTtl] = useState('300')
  const seq = useRef(0)

  const load = useCallback(async () => {
    const mine = ++seq.current
    setLoading(true)
    const q = new URLSearchParams({
      page: String(query.page),
      per_page: String(query.perPage),
      order: query.order,
      direction: query.direction,
    })
    if (query.type) q.set('type', query.type)
    if (query.search) q.set('search', query.search)
    try {
      const { result, result_info } = await api('GET', `/zones/${zone.id}/dns_records?${q}`)
      if (mine !== seq.current) return
      setData({ records: result, info: result_info })
      setLoadError(null)
    } catch (e) {
      if (mine === seq.current) setLoadError(e.message)
    } finally {
      if (mine === seq.current) setLoading(false)
    }
  }, [zone.id, query])

  useEffect(() => {
    load()
  }, [load])
  useEffect(() => {
    setSelected(new Map())
    setEditingId(null)
  }, [zone.id])

  const changed = async (message) => {
    notify(message)
    onChanged()
    await load()
  }

  const sortBy = (col) =>
    setQuery((q) => ({
      ...q,
      order: col,
      direction: q.order === col && q.direction === 'asc' ? 'desc' : 'asc',
      page: 1,
    }))

  const toggle = (r, on) =>
    setSelected((s) => {
      const n = new Map(s)
      if (on) n.set(r.id, r)
      else n.delete(r.id)
      return n
    })
  const pageIds = data.records.map((r) => r.id)
  const allOnPage = pageIds.length > 0 && pageIds.every((id) => selected.has(id))
  const toggleAll = (on) =>
    setSelected((s) => {
      const n = new Map(s)
      for (const r of data.records) on ? n.set(r.id, r) : n.delete(r.id)
      return n
    })

  const openBulk = (action) => {
    setBulkErrors(null)
    setPlan(planBulk(action, [...selected.values()]))
  }

  async function applyBulk() {
    try {
      await api('POST', `/zones/${zone.id}/dns_records/batch`, plan.body)
      const done = plan.title
      setPlan(null)
      setSelected(new Map())
      await changed(`Done: ${done}.`)
    } catch (e) {
      if (e.forbidden) onForbidden(e)
      setBulkErrors(describeBatchErrors(e, plan))
    }
  }

  async function toggleProxy(r) {
    try {
      await api('PATCH', `/zones/${zone.id}/dns_records/${r.id}`, { proxied: !r.proxied })
      await changed(`${r.name}: proxy ${r.proxied ? 'off' : 'on'}.`)
    } catch (e) {
      if (e.forbidden) onForbidden(e)
      notify(`${r.name}: ${e.message}`, true)
    }
  }

  const info = data.info
  const selCount = selected.size
  return html`<section aria-labelledby="records-heading">
    <div class="section-head">
      <h2 id="records-heading">DNS records</h2>
      ${readOnly ? null : html`<button type="button" class="primary" onClick=${() => setForm({ record: null })}>Add record</button>`}
    </div>
    <form class="toolbar" role="search" onSubmit=${(ev) => (ev.preventDefault(), setQuery((q) => ({ ...q, search: searchText.trim(), page: 1 })))}>
      <div class="field inline">
        <label for="record-search">Search</label>
        <input id="record-search" type="search" placeholder="name, content or comment" value=${searchText} onInput=${(ev) => setSearchText(ev.currentTarget.value)} />
      </div>
      <button type="submit">Search</button>
      <div class="field inline">
        <label for="type-filter">Type</label>
        <select id="type-filter" value=${query.type} onChange=${(ev) => setQuery((q) => ({ ...q, type: ev.currentTarget.value, page: 1 }))}>
          <option value="">All types</option>
          ${RECORD_TYPES.map((t) => html`<option value=${t}>${t}</option>`)}
        </select>
      </div>
      <div class="field inline">
        <label for="page-size">Per page</label>
        <select id="page-size" value=${String(query.perPage)} onChange=${(ev) => setQuery((q) => ({ ...q, perPage: Number(ev.currentTarget.value), page: 1 }))}>
          ${PAGE_SIZES.map((n) => html`<option value=${String(n)}>${n}</option>`)}
        </select>
      </div>
    </form>

    ${
      selCount > 0 && !readOnly
        ? html`<div class="bulk-bar" role="region" aria-label="Bulk actions">
          <strong>${selCount} selected</strong>
          <button type="button" class="danger" onClick=${() => openBulk({ kind: 'delete' })}>Delete</button>
          <button type="button" onClick=${() => openBulk({ kind: 'proxy', on: true })}>Proxy on</button>
          <button type="button" onClick=${() => openBulk({ kind: 'proxy', on: false })}>Proxy off</button>
          <span class="ttl-group">
            <label for="bulk-ttl">TTL</label>
            <select id="bulk-ttl" value=${ttl} onChange=${(ev) => setTtl(ev.currentTarget.value)}>
              ${[1, 60, 300, 3600, 86400].map((t) => html`<option value=${String(t)}>${ttlText(t)}</option>`)}
            </select>
            <button type="button" onClick=${() => openBulk({ kind: 'ttl', ttl: Number(ttl) })}>Set TTL</button>
          </span>
          <button type="button" class="link" onClick=${() => setSelected(new Map())}>Clear selection</button>
        </div>`
        : null
    }

    ${loadError ? html`<p class="alert error" role="alert">${loadError}</p>` : null}
    <div class="table-wrap">
      <table class="records" aria-busy=${loading ? 'true' : 'false'} aria-describedby="records-heading">
        <thead>
          <tr>
            ${readOnly ? null : html`<th class="sel"><input type="checkbox" aria-label="Select all records on this page" checked=${allOnPage} onChange=${(ev) => toggleAll(ev.currentTarget.checked)} /></th>`}
            ${SORTABLE.map(
              ([
                col,
                label,
              ]) => html`<th aria-sort=${query.order === col ? (query.direction === 'asc' ? 'ascending' : 'descending') : 'none'} class=${`col-${col}`}>
                <button type="button" class="sort" onClick=${() => sortBy(col)}>${label}${query.order === col ? (query.direction === 'asc' ? ' ▲' : ' ▼') : ''}</button>
              </th>`
            )}
            ${readOnly ? null : html`<th><span class="visually-hidden">Actions</span></th>`}
          </tr>
        </thead>
        <tbody>
          ${data.records.length === 0 && !loading ? html`<tr><td colspan="7" class="empty">No records match.</td></tr>` : null}
          ${data.records.map((r) =>
            editingId === r.id
              ? html`<${InlineEdit} key=${r.id} zone=${zone} record=${r} onDone=${async (msg) => (setEditingId(null), msg && (await changed(msg)))} onForbidden=${onForbidden} />`
              : html`<${Row} key=${r.id} zone=${zone} record=${r} readOnly=${readOnly} selected=${selected.has(r.id)} onSelect=${(on) => toggle(r, on)} onEdit=${() => setEditingId(r.id)} onMore=${() => setForm({ record: r })} onProxy=${() => toggleProxy(r)} />`
          )}
        </tbody>
      </table>
    </div>
    <${Pager} info=${info} label="Records pages" onPage=${(p) => setQuery((q) => ({ ...q, page: p }))} />

    ${
      plan
        ? html`<${Modal} title=${plan.title} onClose=${() => setPlan(null)}>
          <p>One batch, applied as a whole: either every change below is made, or none is.</p>
          ${plan.lines.length > 0 ? html`<ul class="change-list" aria-label="Changes">${plan.lines.map((l) => html`<li>${l}</li>`)}</ul>` : html`<p>Nothing to change.</p>`}
          ${
            plan.unchanged.length > 0
              ? html`<details><summary>${plan.unchanged.length} selected record${plan.unchanged.length === 1 ? '' : 's'} left unchanged</summary><ul class="change-list">${plan.unchanged.map((l) => html`<li>${l}</li>`)}</ul></details>`
              : null
          }
          <${ErrorList} messages=${bulkErrors} />
          ${bulkErrors ? html`<p>Nothing was changed.</p>` : null}
          <div class="actions">
            <button type="button" class=${plan.key === 'deletes' ? 'danger' : 'primary'} disabled=${plan.items.length === 0} onClick=${applyBulk}>Apply ${plan.items.length} change${plan.items.length === 1 ? '' : 's'}</button>
            <button type="button" onClick=${() => setPlan(null)}>Cancel</button>
          </div>
        <//>`
        : null
    }

    ${
      form
        ? html`<${Modal} title=${form.record ? `Edit ${form.record.type} ${form.record.name}` : 'Add record'} onClose=${() => setForm(null)} wide>
          <${RecordForm}
            zone=${zone}
            record=${form.record}
            onForbidden=${onForbidden}
            onCancel=${() => setForm(null)}
            onSaved=${async (r, verb) => (setForm(null), await changed(`${verb} ${r.type} ${r.name}.`))}
          />
        <//>`
        : null
    }
  </section>`
}

function Row({ zone, record: r, readOnly, selected, onSelect, onEdit, onMore, onProxy }) {
  const label = `${r.type} ${r.name}`
  return html`<tr class=${selected ? 'selected' : ''}>
    ${readOnly ? null : html`<td class="sel"><input type="checkbox" aria-label=${`Select ${label} ${r.content}`} checked=${selected} onChange=${(ev) => onSelect(ev.currentTarget.checked)} /></td>`}
    <td class="col-type"><span class="type">${r.type}</span></td>
    <td class="col-name">${relativeName(r.name, zone.name)}<span class="fqdn">${r.name}</span></td>
    <td class="col-content content">${showsPriority(r) ? html`<span class="prio">${r.priority}</span> ` : null}${r.content}${r.comment ? html`<div class="comment">${r.comment}</div>` : null}</td>
    <td class="col-ttl">${ttlText(r.ttl)}</td>
    <td class="col-proxied">
      ${
        r.proxiable && !readOnly
          ? html`<button type="button" role="switch" class=${`switch${r.proxied ? ' on' : ''}`} aria-checked=${r.proxied ? 'true' : 'false'} aria-label=${`Proxy ${label}`} onClick=${onProxy}><span>${r.proxied ? 'Proxied' : 'DNS only'}</span></button>`
          : html`<span class="muted">${r.proxied ? 'Proxied' : 'DNS only'}</span>`
      }
    </td>
    ${
      readOnly
        ? null
        : html`<td class="row-actions">
          <button type="button" onClick=${onEdit} aria-label=${`Edit ${label} inline`}>Edit</button>
          <button type="button" class="link" onClick=${onMore} aria-label=${`Edit all fields of ${label}`}>Fields…</button>
        </td>`
    }
  </tr>`
}

/** A row turned into inputs: name, content (or priority + content), TTL; saves with one PATCH. */
function InlineEdit({ zone, record: r, onDone, onForbidden }) {
  const hasContent = fieldsFor(r.type).some((f) => f.key === 'content')
  const [name, setName] = useState(relativeName(r.name, zone.name))
  const [content, setContent] = useState(r.content)
  const [priority, setPriority] = useState(r.priority === undefined ? '' : String(r.priority))
  const [ttl, setTtl] = useState(String(r.ttl))
  const [errors, setErrors] = useState({})
  const first = useRef(null)
  // Focus in the same task as the render that shows the inputs: an effect runs after paint, and
  // typing that starts in between (a quick user, a test driver) would jump to the Name field midway.
  useLayoutEffect(() => first.current?.focus(), [])

  async function save(ev) {
    ev?.preventDefault()
    const patch = {}
    if (name !== relativeName(r.name, zone.name)) patch.name = name
    if (content !== r.content) patch.content = content
    if (r.type === 'MX' && priority !== String(r.priority)) patch.priority = Number(priority)
    if (ttl !== String(r.ttl)) patch.ttl = Number(ttl)
    if (Object.keys(patch).length === 0) return onDone(null)
    try {
      await api('PATCH', `/zones/${zone.id}/dns_records/${r.id}`, patch)
      onDone(`Saved ${r.type} ${name === '@' ? zone.name : name}.`)
    } catch (e) {
      if (e.forbidden) onForbidden(e)
      setErrors(fieldErrors(e, ['name', 'content', 'priority', 'ttl']))
    }
  }
  const keys = (ev) => {
    if (ev.key === 'Escape') onDone(null)
    if (ev.key === 'Enter') save(ev)
  }
  const err = (k) =>
    errors[k] ? html`<small class="error" role="alert">${errors[k]}</small>` : null
  return html`<tr class="editing" onKeyDown=${keys}>
    <td class="sel"></td>
    <td class="col-type"><span class="type">${r.type}</span></td>
    <td class="col-name"><input ref=${first} aria-label="Name" value=${name} onInput=${(ev) => setName(ev.currentTarget.value)} aria-invalid=${errors.name ? 'true' : undefined} />${err('name')}</td>
    <td class="col-content">
      ${r.type === 'MX' ? html`<input class="prio-input" type="number" aria-label="Priority" value=${priority} onInput=${(ev) => setPriority(ev.currentTarget.value)} />` : null}
      ${
        hasContent
          ? html`<input aria-label="Content" value=${content} onInput=${(ev) => setContent(ev.currentTarget.value)} aria-invalid=${errors.content ? 'true' : undefined} />`
          : html`<span class="content">${r.content}</span> <small class="hint">(its fields: use “Fields…”)</small>`
      }
      ${err('content')}${err('priority')}${err('_form')}
    </td>
    <td class="col-ttl"><input type="number" aria-label="TTL" value=${ttl} onInput=${(ev) => setTtl(ev.currentTarget.value)} aria-invalid=${errors.ttl ? 'true' : undefined} />${err('ttl')}</td>
    <td class="col-proxied"></td>
    <td class="row-actions">
      <button type="button" class="primary" onClick=${save}>Save</button>
      <button type="button" onClick=${() => onDone(null)}>Cancel</button>
    </td>
  </tr>`
}
