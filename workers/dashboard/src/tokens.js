/** @module API tokens: list, create scoped tokens (the secret is shown once), revoke. */
import { useEffect, useState } from 'preact/hooks'
import { allTokens, api } from './api.js'
import { html } from './html.js'
import { ACCOUNT, buildPolicies, ZONE } from './token-policies.js'
import { Modal } from './ui.js'

const scopeText = (t) =>
  t.policies
    .map(
      (p) =>
        `${p.permission_groups.map((g) => g.name).join(', ')} on ${Object.keys(p.resources)
          .map((k) => k.replace(ZONE, 'zone ').replace(ACCOUNT, 'account '))
          .join(', ')}`
    )
    .join('; ')

export function TokensView({ zone, notify }) {
  const [tokens, setTokens] = useState(null)
  const [groups, setGroups] = useState([])
  const [error, setError] = useState(null)
  const [name, setName] = useState('')
  const [chosen, setChosen] = useState([])
  const [scope, setScope] = useState('zone')
  const [createError, setCreateError] = useState(null)
  const [secret, setSecret] = useState(null)
  const [revoking, setRevoking] = useState(null)

  const load = () =>
    allTokens()
      .then(({ result }) => (setTokens(result), setError(null)))
      .catch((e) =>
        setError(e.forbidden ? `This token cannot manage API tokens: ${e.message}` : e.message)
      )
  useEffect(() => {
    load()
    api('GET', '/user/tokens/permission_groups')
      .then(({ result }) => setGroups(result))
      .catch(() => {})
  }, [])

  async function create(ev) {
    ev.preventDefault()
    setCreateError(null)
    if (chosen.length === 0) return setCreateError('Choose at least one permission.')
    try {
      const { result } = await api('POST', '/user/tokens', {
        name: name.trim(),
        policies: buildPolicies(groups, chosen, scope, zone),
      })
      setSecret({ name: result.name, value: result.value })
      setName('')
      setChosen([])
      await load()
    } catch (e) {
      setCreateError(e.message)
    }
  }

  async function revoke() {
    try {
      await api('DELETE', `/user/tokens/${revoking.id}`)
      notify(`Revoked ${revoking.name}.`)
      setRevoking(null)
      await load()
    } catch (e) {
      notify(e.message, true)
    }
  }

  if (error)
    return html`<section aria-labelledby="tokens-heading"><h2 id="tokens-heading">API tokens</h2><p class="alert error" role="alert">${error}</p></section>`
  return html`<section aria-labelledby="tokens-heading">
    <h2 id="tokens-heading">API tokens</h2>
    ${
      secret
        ? html`<div class="alert ok secret" role="status">
          <p>Token <strong>${secret.name}</strong> created. Copy its secret now: it is shown only once.</p>
          <label for="token-secret">Secret</label>
          <input id="token-secret" class="mono" readonly value=${secret.value} onFocus=${(ev) => ev.currentTarget.select()} />
          <button type="button" onClick=${() => navigator.clipboard?.writeText(secret.value).then(() => notify('Copied.'))}>Copy</button>
          <button type="button" class="link" onClick=${() => setSecret(null)}>I have copied it</button>
        </div>`
        : null
    }
    <form class="card token-form" onSubmit=${create}>
      <h3>Create a token</h3>
      <div class="field"><label for="token-name">Token name</label><input id="token-name" required value=${name} onInput=${(ev) => setName(ev.currentTarget.value)} /></div>
      <fieldset><legend>Permissions</legend>
        ${groups.map(
          (g) =>
            html`<label class="check"><input type="checkbox" checked=${chosen.includes(g.id)} onChange=${(ev) => setChosen((c) => (ev.currentTarget.checked ? [...c, g.id] : c.filter((x) => x !== g.id)))} /> ${g.name}</label>`
        )}
      </fieldset>
      <fieldset><legend>Zones</legend>
        <label class="check"><input type="radio" name="token-scope" checked=${scope === 'zone'} onChange=${() => setScope('zone')} /> Only ${zone.name}</label>
        <label class="check"><input type="radio" name="token-scope" checked=${scope === 'account'} onChange=${() => setScope('account')} /> Every zone of account ${zone.account.name}</label>
      </fieldset>
      ${createError ? html`<p class="alert error" role="alert">${createError}</p>` : null}
      <button type="submit" class="primary">Create token</button>
    </form>
    <div class="table-wrap"><table>
      <thead><tr><th>Name</th><th>Permissions</th><th>Status</th><th>Issued</th><th><span class="visually-hidden">Actions</span></th></tr></thead>
      <tbody>
        ${(tokens ?? []).map(
          (t) => html`<tr>
            <td>${t.name}</td><td>${scopeText(t)}</td><td>${t.status}</td><td><time datetime=${t.issued_on}>${new Date(t.issued_on).toLocaleString()}</time></td>
            <td><button type="button" class="danger" onClick=${() => setRevoking(t)} aria-label=${`Revoke ${t.name}`}>Revoke</button></td>
          </tr>`
        )}
        ${tokens && tokens.length === 0 ? html`<tr><td colspan="5" class="empty">No tokens yet.</td></tr>` : null}
      </tbody>
    </table></div>
    ${
      revoking
        ? html`<${Modal} title=${`Revoke ${revoking.name}?`} onClose=${() => setRevoking(null)}>
          <p>Requests with this token will be refused from now on. This cannot be undone.</p>
          <div class="actions"><button type="button" class="danger" onClick=${revoke}>Revoke token</button><button type="button" onClick=${() => setRevoking(null)}>Cancel</button></div>
        <//>`
        : null
    }
  </section>`
}
