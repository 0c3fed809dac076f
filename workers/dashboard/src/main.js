/** @module Entry point: mounts the dashboard. Bundled by ../build.mjs into ../public/app.js. */
import { render } from 'preact'
import { App } from './app.js'
import { html } from './html.js'

render(html`<${App} />`, document.getElementById('app'))
