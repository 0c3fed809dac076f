/** @module Small shared pieces: a labelled field with its hint and error, a modal dialog, a pager. */
import { useLayoutEffect, useRef } from 'preact/hooks'
import { html } from './html.js'

let ids = 0
const nextId = (prefix) => `${prefix}-${++ids}`

/** A labelled input/select/textarea with hint and error wired through aria-describedby. */
export function Field({ field, value, error, onInput, disabled, idPrefix = 'f' }) {
  const id = useRef(nextId(idPrefix)).current
  const hintId = `${id}-hint`
  const errId = `${id}-err`
  const described =
    [field.hint ? hintId : '', error ? errId : ''].filter(Boolean).join(' ') || undefined
  const common = {
    id,
    name: field.key,
    disabled,
    'aria-invalid': error ? 'true' : undefined,
    'aria-describedby': described,
  }
  const set = (ev) => onInput(field.key, ev.currentTarget.value)
  let control
  if (field.kind === 'select') {
    control = html`<select ...${common} value=${value} onChange=${set}>${field.options.map((o) => (typeof o === 'string' ? html`<option value=${o}>${o}</option>` : html`<option value=${o.value}>${o.label}</option>`))}</select>`
  } else if (field.kind === 'textarea') {
    control = html`<textarea ...${common} rows="3" value=${value} onInput=${set}></textarea>`
  } else {
    const numeric = field.kind === 'number'
    control = html`<input ...${common} type=${numeric ? 'number' : 'text'} inputmode=${numeric ? 'decimal' : undefined} step=${numeric ? 'any' : undefined} min=${field.min} max=${field.max} value=${value} onInput=${set} autocomplete="off" spellcheck="false" />`
  }
  return html`<div class=${`field${error ? ' has-error' : ''}`} data-field=${field.key}>
    <label for=${id}>${field.label}</label>
    ${control}
    ${field.hint ? html`<small id=${hintId} class="hint">${field.hint}</small>` : null}
    ${error ? html`<small id=${errId} class="error" role="alert">${error}</small>` : null}
  </div>`
}

/** A modal <dialog>: focus moves into it, Escape closes it, focus returns to the opener. */
export function Modal({ title, onClose, children, wide }) {
  const ref = useRef(null)
  // Opened and focused in the render's own task (not after paint), so typing never lands elsewhere.
  useLayoutEffect(() => {
    const opener = document.activeElement
    const d = ref.current
    d.showModal()
    const focusable = d.querySelector('[autofocus], input, select, textarea, button')
    focusable?.focus()
    return () => {
      if (d.open) d.close()
      if (opener instanceof HTMLElement) opener.focus()
    }
  }, [])
  return html`<dialog ref=${ref} class=${wide ? 'wide' : ''} aria-labelledby="modal-title" onCancel=${(ev) => (ev.preventDefault(), onClose())}>
    <h2 id="modal-title">${title}</h2>
    ${children}
  </dialog>`
}

export function Pager({ info, onPage, label }) {
  if (!info) return null
  const pages = Math.max(1, info.total_pages ?? 1)
  return html`<nav class="pager" aria-label=${label}>
    <button type="button" onClick=${() => onPage(1)} disabled=${info.page <= 1} aria-label="First page">«</button>
    <button type="button" onClick=${() => onPage(info.page - 1)} disabled=${info.page <= 1}>‹ Previous</button>
    <span class="page-info" aria-live="polite">Page ${info.page.toLocaleString('en')} of ${pages.toLocaleString('en')} · ${info.total_count.toLocaleString('en')} total</span>
    <button type="button" onClick=${() => onPage(info.page + 1)} disabled=${info.page >= pages}>Next ›</button>
    <button type="button" onClick=${() => onPage(pages)} disabled=${info.page >= pages} aria-label="Last page">»</button>
  </nav>`
}

export function ErrorList({ messages }) {
  if (!messages || messages.length === 0) return null
  return html`<div class="alert error" role="alert"><ul>${messages.map((m) => html`<li>${m}</li>`)}</ul></div>`
}
