/**
 * @module The browsable API reference: one static HTML page that loads ./openapi.json from the
 * same origin and renders paths, methods, parameters, bodies and schemas. Nothing from a CDN.
 */
export const DOCS_HTML = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>edgedns API reference</title>
<style>
  body { font: 15px/1.5 system-ui, sans-serif; margin: 0; color: #1d1d1f; background: #fafafa }
  header { padding: 16px 24px; background: #1d3557; color: #fff }
  header h1 { margin: 0; font-size: 20px }
  main { display: grid; grid-template-columns: 260px 1fr; gap: 24px; padding: 16px 24px }
  nav a { display: block; color: #1d3557; text-decoration: none; font-size: 13px; padding: 2px 0 }
  nav h3 { margin: 12px 0 4px; font-size: 13px; text-transform: uppercase; color: #666 }
  input#filter { width: 100%; padding: 6px; box-sizing: border-box }
  details.op { background: #fff; border: 1px solid #ddd; border-radius: 6px; margin: 8px 0 }
  details.op > summary { padding: 8px 12px; cursor: pointer; font-family: ui-monospace, monospace }
  .m { display: inline-block; width: 64px; font-weight: 700; text-transform: uppercase }
  .get { color: #2a7ab0 } .post { color: #2f9e44 } .put { color: #c77c02 } .patch { color: #8e44ad } .delete { color: #c0392b }
  .body { padding: 0 12px 12px }
  table { border-collapse: collapse; width: 100%; font-size: 13px }
  td, th { border-bottom: 1px solid #eee; text-align: left; padding: 3px 6px; vertical-align: top }
  pre { background: #f4f4f4; padding: 8px; overflow: auto; font-size: 12px; max-height: 400px }
  .muted { color: #666 }
</style>
</head>
<body>
<header><h1>edgedns API reference</h1><div class="muted" id="meta"></div></header>
<main>
  <nav><input id="filter" placeholder="Filter paths…"><div id="toc"></div></nav>
  <section id="ops">Loading openapi.json…</section>
</main>
<script>
const esc = (s) => String(s).replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c])
let doc
function resolve(schema, depth = 0) {
  if (!schema || depth > 6) return schema
  if (schema.$ref) return { $ref: schema.$ref, ...resolve(doc.components.schemas[schema.$ref.split('/').pop()], depth + 1) }
  return schema
}
function schemaBlock(schema) {
  return '<pre>' + esc(JSON.stringify(resolve(schema), null, 2)) + '</pre>'
}
function render(filter) {
  const ops = document.getElementById('ops')
  const toc = document.getElementById('toc')
  const byTag = {}
  for (const [path, methods] of Object.entries(doc.paths)) {
    if (filter && !path.toLowerCase().includes(filter)) continue
    for (const [method, op] of Object.entries(methods)) (byTag[op.tags[0]] ??= []).push({ path, method, op })
  }
  let html = '', nav = ''
  for (const [tag, list] of Object.entries(byTag)) {
    html += '<h2 id="tag-' + esc(tag) + '">' + esc(tag) + '</h2>'
    nav += '<h3>' + esc(tag) + '</h3>'
    for (const { path, method, op } of list) {
      const id = op.operationId
      nav += '<a href="#' + id + '"><span class="' + method + '">' + method.toUpperCase() + '</span> ' + esc(path) + '</a>'
      html += '<details class="op" id="' + id + '"><summary><span class="m ' + method + '">' + method + '</span>' + esc(doc.servers[0].url + path) + ' <span class="muted">— ' + esc(op.summary) + '</span></summary><div class="body">'
      if (op.security && op.security.length === 0) html += '<p class="muted">No token needed.</p>'
      if (op.parameters.length) {
        html += '<h4>Parameters</h4><table><tr><th>name</th><th>in</th><th>type</th><th>description</th></tr>'
        for (const p of op.parameters) html += '<tr><td><code>' + esc(p.name) + '</code></td><td>' + p.in + '</td><td>' + esc(p.schema.enum ? p.schema.enum.join(' | ') : p.schema.type) + '</td><td>' + esc(p.description || '') + '</td></tr>'
        html += '</table>'
      }
      if (op.requestBody) for (const [type, c] of Object.entries(op.requestBody.content)) html += '<h4>Request body <span class="muted">' + esc(type) + '</span></h4>' + schemaBlock(c.schema)
      for (const [status, res] of Object.entries(op.responses)) {
        html += '<h4>' + status + ' <span class="muted">' + esc(res.description) + '</span></h4>'
        if (status === '200' && res.content) for (const c of Object.values(res.content)) html += schemaBlock(c.schema)
      }
      html += '</div></details>'
    }
  }
  html += '<h2>Schemas</h2>'
  for (const [name, s] of Object.entries(doc.components.schemas)) html += '<details class="op"><summary>' + esc(name) + '</summary><div class="body"><pre>' + esc(JSON.stringify(s, null, 2)) + '</pre></div></details>'
  ops.innerHTML = html
  toc.innerHTML = nav
}
fetch('openapi.json').then((r) => r.json()).then((d) => {
  doc = d
  document.getElementById('meta').textContent = d.info.title + ' ' + d.info.version + ' · OpenAPI ' + d.openapi
  render('')
  document.getElementById('filter').addEventListener('input', (e) => render(e.target.value.toLowerCase()))
}).catch((e) => { document.getElementById('ops').textContent = 'Could not load openapi.json: ' + e })
</script>
</body>
</html>
`
