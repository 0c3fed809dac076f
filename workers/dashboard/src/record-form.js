/**
 * @module Add or edit one record with the fields its type has; the API's validation messages
 * appear next to the field they are about.
 */
import { useRef, useState } from 'preact/hooks'
import { api } from './api.js'
import { fieldErrors } from './field-errors.js'
import { html } from './html.js'
import {
  bodyFromValues,
  emptyValues,
  fieldsFor,
  PROXIABLE,
  RECORD_TYPES,
  valuesFromRecord,
} from './record-types.js'
import { Field } from './ui.js'

const TTL_FIELD = {
  key: 'ttl',
  label: 'TTL (seconds)',
  kind: 'number',
  min: 1,
  max: 86400,
  hint: '1 = automatic, else 60–86400',
}
const COMMENT_FIELD = { key: 'comment', label: 'Comment', kind: 'text', hint: 'optional' }

export function RecordForm({ zone, record, onSaved, onCancel, onForbidden }) {
  const [values, setValues] = useState(() =>
    record ? valuesFromRecord(record, zone.name) : emptyValues('A')
  )
  const [errors, setErrors] = useState({})
  const [busy, setBusy] = useState(false)
  const formRef = useRef(null)
  const type = values.type
  const nameField = {
    key: 'name',
    label: type === 'SRV' ? 'Host (@ for the zone apex)' : 'Name',
    kind: 'text',
    hint: `relative to ${zone.name}; @ for the apex`,
  }
  const fields = fieldsFor(type)

  const setField = (key, value) => setValues((v) => ({ ...v, [key]: value }))
  const setType = (ev) => {
    const next = emptyValues(ev.currentTarget.value)
    setValues((v) => ({ ...next, name: v.name, ttl: v.ttl, comment: v.comment }))
    setErrors({})
  }

  async function submit(ev) {
    ev.preventDefault()
    setBusy(true)
    setErrors({})
    const body = bodyFromValues(values)
    try {
      const path = `/zones/${zone.id}/dns_records${record ? `/${record.id}` : ''}`
      const { result } = await api(record ? 'PUT' : 'POST', path, body)
      onSaved(result, record ? 'Saved' : 'Added')
    } catch (e) {
      if (e.forbidden) onForbidden(e)
      const errs = fieldErrors(e, [
        'name',
        'ttl',
        'proxied',
        'comment',
        ...fields.map((f) => f.key),
      ])
      setErrors(errs)
      setBusy(false)
      requestAnimationFrame(() =>
        formRef.current?.querySelector('[aria-invalid="true"], .form-error')?.focus()
      )
    }
  }

  return html`<form ref=${formRef} class="record-form" onSubmit=${submit} aria-label=${record ? 'Edit record' : 'Add record'} novalidate>
    <div class="field">
      <label for="record-type">Type</label>
      <select id="record-type" value=${type} onChange=${setType} disabled=${Boolean(record)}>
        ${RECORD_TYPES.map((t) => html`<option value=${t}>${t}</option>`)}
      </select>
    </div>
    ${type === 'SRV' ? fields.slice(0, 2).map((f) => html`<${Field} field=${f} value=${values[f.key]} error=${errors[f.key]} onInput=${setField} />`) : null}
    <${Field} field=${nameField} value=${values.name} error=${errors.name} onInput=${setField} />
    ${(type === 'SRV' ? fields.slice(2) : fields).map((f) => html`<${Field} field=${f} value=${values[f.key]} error=${errors[f.key]} onInput=${setField} />`)}
    <${Field} field=${TTL_FIELD} value=${values.ttl} error=${errors.ttl} onInput=${setField} />
    ${
      PROXIABLE.has(type)
        ? html`<div class=${`field check${errors.proxied ? ' has-error' : ''}`} data-field="proxied">
          <label><input type="checkbox" checked=${values.proxied} onChange=${(ev) => setField('proxied', ev.currentTarget.checked)} /> Proxied</label>
          ${errors.proxied ? html`<small class="error" role="alert">${errors.proxied}</small>` : null}
        </div>`
        : null
    }
    <${Field} field=${COMMENT_FIELD} value=${values.comment} error=${errors.comment} onInput=${setField} />
    ${errors._form ? html`<p class="alert error form-error" role="alert" tabindex="-1">${errors._form}</p>` : null}
    <div class="actions">
      <button type="submit" class="primary" disabled=${busy}>${record ? 'Save record' : 'Add record'}</button>
      <button type="button" onClick=${onCancel}>Cancel</button>
    </div>
  </form>`
}
