/** @module The login step: asks for an API token; under local development offers the dev token. */
import { useEffect, useLayoutEffect, useRef, useState } from 'preact/hooks'
import { api, localDevToken } from './api.js'
import { html } from './html.js'

export function Login({ onLogin }) {
  const [token, setToken] = useState('')
  const [error, setError] = useState(null)
  const [devToken, setDevToken] = useState(null)
  const input = useRef(null)
  useLayoutEffect(() => input.current?.focus(), [])
  useEffect(() => {
    localDevToken().then(setDevToken)
  }, [])

  async function login(value) {
    setError(null)
    try {
      await api('GET', '/user/tokens/verify', undefined, value)
      onLogin(value)
    } catch (e) {
      setError(
        e.status === 403 ? 'That token is not valid (unknown, revoked or expired).' : e.message
      )
      input.current?.focus()
    }
  }

  return html`<main class="login">
    <form class="card" onSubmit=${(ev) => (ev.preventDefault(), login(token.trim()))} aria-labelledby="login-heading">
      <h1 id="login-heading">Sign in to edgedns</h1>
      <p>Paste an API token. It stays in this browser tab only (never in the address bar) and is forgotten when the tab closes.</p>
      <div class="field">
        <label for="login-token">API token</label>
        <input id="login-token" ref=${input} type="password" autocomplete="off" required value=${token} onInput=${(ev) => setToken(ev.currentTarget.value)} aria-invalid=${error ? 'true' : undefined} aria-describedby=${error ? 'login-error' : undefined} />
        ${error ? html`<small id="login-error" class="error" role="alert">${error}</small>` : null}
      </div>
      <div class="actions">
        <button type="submit" class="primary">Sign in</button>
        ${devToken ? html`<button type="button" onClick=${() => login(devToken)}>Use the local dev token</button>` : null}
      </div>
      ${devToken ? html`<p class="hint">Local development (<code>pnpm dev</code>): the dev token can do everything and exists only here.</p>` : null}
    </form>
  </main>`
}
