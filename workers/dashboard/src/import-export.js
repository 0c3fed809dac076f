/**
 * @module Zone-file import (upload, preview of what will be created, one atomic import) and export.
 * The preview parses the file with the same BIND parser the API uses.
 */
import { useState } from 'preact/hooks'
import { api, apiText } from './api.js'
import { html } from './html.js'
import { previewImport } from './import-preview.js'

const PREVIEW_ROWS = 500

export function ImportExportView({ zone, readOnly, onChanged, onForbidden, notify }) {
  const [file, setFile] = useState(null)
  const [preview, setPreview] = useState(null)
  const [parseError, setParseError] = useState(null)
  const [proxied, setProxied] = useState(false)
  const [result, setResult] = useState(null)
  const [importError, setImportError] = useState(null)
  const [busy, setBusy] = useState(false)

  async function choose(ev) {
    const f = ev.currentTarget.files?.[0] ?? null
    setFile(f)
    setPreview(null)
    setParseError(null)
    setResult(null)
    setImportError(null)
    if (!f) return
    try {
      setPreview(previewImport(await f.text(), zone.name))
    } catch (e) {
      setParseError(e.message)
    }
  }

  async function runImport() {
    setBusy(true)
    setImportError(null)
    const form = new FormData()
    form.append('file', file, file.name)
    if (proxied) form.append('proxied', 'true')
    try {
      const { result: r, messages } = await api(
        'POST',
        `/zones/${zone.id}/dns_records/import`,
        form
      )
      setResult({ ...r, messages: messages ?? [] })
      setPreview(null)
      notify(`Imported ${r.recs_added} records.`)
      onChanged()
    } catch (e) {
      if (e.forbidden) onForbidden(e)
      setImportError(`${e.message} — nothing was imported.`)
    } finally {
      setBusy(false)
    }
  }

  async function exportZone() {
    try {
      const text = await apiText(`/zones/${zone.id}/dns_records/export`)
      const url = URL.createObjectURL(new Blob([text], { type: 'text/plain' }))
      const a = Object.assign(document.createElement('a'), {
        href: url,
        download: `${zone.name}.zone`,
      })
      document.body.append(a)
      a.click()
      a.remove()
      setTimeout(() => URL.revokeObjectURL(url), 1000)
      notify(`Exported ${zone.name}.zone`)
    } catch (e) {
      notify(`Export failed: ${e.message}`, true)
    }
  }

  return html`<section aria-labelledby="ie-heading">
    <h2 id="ie-heading">Import and export</h2>
    <div class="card">
      <h3>Export</h3>
      <p>Download every record of ${zone.name} as a BIND zone file.</p>
      <button type="button" onClick=${exportZone}>Export zone file</button>
    </div>
    ${
      readOnly
        ? null
        : html`<div class="card">
          <h3>Import</h3>
          <p>Choose a BIND zone file. You see what will be created before anything changes; the import then runs as one batch: all records are added, or none.</p>
          <div class="field">
            <label for="zone-file">Zone file</label>
            <input id="zone-file" type="file" accept=".zone,.txt,.db,text/plain" onChange=${choose} />
          </div>
          <div class="field check"><label><input type="checkbox" checked=${proxied} onChange=${(ev) => setProxied(ev.currentTarget.checked)} /> Proxy imported A, AAAA and CNAME records</label></div>
          ${parseError ? html`<p class="alert error" role="alert">Cannot read the file: ${parseError}</p>` : null}
          ${
            preview
              ? html`<div class="preview" aria-labelledby="preview-heading">
                <h4 id="preview-heading">Preview: ${preview.create.length} record${preview.create.length === 1 ? '' : 's'} to create${preview.skipped.length ? `, ${preview.skipped.length} skipped` : ''}</h4>
                <div class="table-wrap"><table>
                  <thead><tr><th>Line</th><th>Type</th><th>Name</th><th>TTL</th><th>Content</th></tr></thead>
                  <tbody>
                    ${preview.create.slice(0, PREVIEW_ROWS).map((e) => html`<tr><td>${e.line}</td><td>${e.type}</td><td>${e.name}</td><td>${e.ttl}</td><td class="content">${e.rdata}</td></tr>`)}
                    ${preview.skipped.map((e) => html`<tr class="muted"><td>${e.line}</td><td>${e.type}</td><td>${e.name}</td><td>${e.ttl}</td><td>skipped: ${e.why}</td></tr>`)}
                  </tbody>
                </table></div>
                ${preview.create.length > PREVIEW_ROWS ? html`<p>… and ${preview.create.length - PREVIEW_ROWS} more.</p>` : null}
                <p class="muted">Records identical to existing ones are skipped by the server and reported after the import.</p>
                <button type="button" class="primary" disabled=${busy || preview.create.length === 0} onClick=${runImport}>Import ${preview.create.length} records</button>
              </div>`
              : null
          }
          ${importError ? html`<p class="alert error" role="alert">${importError}</p>` : null}
          ${
            result
              ? html`<div class="alert ok" role="status">
                <p>Imported ${result.recs_added} of ${result.total_records_parsed} records parsed.</p>
                ${result.messages.length ? html`<ul>${result.messages.map((m) => html`<li>${m.message}</li>`)}</ul>` : null}
              </div>`
              : null
          }
        </div>`
    }
  </section>`
}
