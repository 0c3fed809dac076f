/** @module A fieldset of the account's peers to pick, kept in the order picked. */
import { useRef } from 'preact/hooks'
import { html } from './html.js'
import { peerAddress, togglePeer } from './transfer-forms.js'

let ids = 0

/**
 * Peers to pick, in the order picked (`chosen`: ids). `peers` null: the token cannot list the
 * account's peers, so only the ids held are offered.
 */
export function PeerPicker({ legend, peers, chosen, onChange, error, ordered }) {
  const errorId = useRef(`peers-error-${++ids}`).current
  const known = new Set((peers ?? []).map((p) => p.id))
  const label = (id) => {
    const p = peers?.find((x) => x.id === id)
    return p ? `${p.name} (${peerAddress(p)})` : id
  }
  return html`<fieldset class="peer-picker" aria-describedby=${error ? errorId : undefined}>
    <legend>${legend}</legend>
    ${peers === null ? html`<p class="hint">This token cannot list the account’s peers: they are shown by id.</p>` : peers.length === 0 ? html`<p class="hint">No peers yet: add one under Peers.</p>` : null}
    ${[...known, ...chosen.filter((id) => !known.has(id))].map(
      (id) =>
        html`<label class="check"><input type="checkbox" checked=${chosen.includes(id)} onChange=${(ev) => onChange(togglePeer(chosen, id, ev.currentTarget.checked))} /> ${label(id)}${ordered && chosen.includes(id) ? html` <span class="muted">(asked ${chosen.indexOf(id) + 1}.)</span>` : null}</label>`
    )}
    ${error ? html`<small id=${errorId} class="error" role="alert">${error}</small>` : null}
  </fieldset>`
}
