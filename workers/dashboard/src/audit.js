/** @module The zone's audit log: who changed which record, before and after, newest first. */
import { useEffect, useState } from 'preact/hooks'
import { allTokens, api } from './api.js'
import { html } from './html.js'
import { describeRecord } from './record-types.js'
import { Pager } from './ui.js'

const show = (r) =>
  r
    ? `${describeRecord(r)} (TTL ${r.ttl === 1 ? 'auto' : r.ttl}${r.proxied ? ', proxied' : ''})`
    : '—'

export function AuditView({ zone, version }) {
  const [page, setPage] = useState(1)
  const [data, setData] = useState(null)
  const [error, setError] = useState(null)
  const [tokenNames, setTokenNames] = useState(() => new Map([['dev', 'local dev token']]))
  // Token names when this token may list tokens (an admin); otherwise the audit shows token ids.
  useEffect(() => {
    allTokens()
      .then(({ result }) =>
        setTokenNames((m) => new Map([...m, ...result.map((t) => [t.id, t.name])]))
      )
      .catch(() => {})
  }, [])
  useEffect(() => {
    api('GET', `/zones/${zone.id}/dns_records/audit?page=${page}&per_page=25`)
      .then(
        ({ result, result_info }) => (setData({ rows: result, info: result_info }), setError(null))
      )
      .catch((e) => setError(e.message))
  }, [zone.id, page, version])

  return html`<section aria-labelledby="audit-heading">
    <h2 id="audit-heading">Audit log</h2>
    ${error ? html`<p class="alert error" role="alert">${error}</p>` : null}
    ${
      data
        ? html`<div class="table-wrap"><table class="audit">
          <thead><tr><th>Seq</th><th>When</th><th>Token</th><th>Action</th><th>Before</th><th>After</th></tr></thead>
          <tbody>
            ${data.rows.length === 0 ? html`<tr><td colspan="6" class="empty">No changes yet.</td></tr>` : null}
            ${data.rows.map(
              (r) => html`<tr>
                <td>${r.seq}</td>
                <td><time datetime=${r.when}>${new Date(r.when).toLocaleString()}</time></td>
                <td>${r.token_id === null ? '—' : tokenNames.has(r.token_id) ? html`${tokenNames.get(r.token_id)} <span class="mono muted">${r.token_id}</span>` : html`<span class="mono">${r.token_id}</span>`}</td>
                <td><span class=${`action ${r.action}`}>${r.action}</span></td>
                <td class="content">${show(r.before)}</td>
                <td class="content">${show(r.after)}</td>
              </tr>`
            )}
          </tbody>
        </table></div>
        <${Pager} info=${data.info} label="Audit log pages" onPage=${setPage} />`
        : html`<p aria-busy="true">Loading…</p>`
    }
  </section>`
}
