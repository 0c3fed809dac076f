// edgedns dashboard: a thin client of the public API (/client/v4) and the DoH endpoint.
const $ = (id) => document.getElementById(id)
const TYPES = ['A', 'AAAA', 'CAA', 'CERT', 'CNAME', 'DNSKEY', 'DS', 'HTTPS', 'LOC', 'MX', 'NAPTR', 'NS', 'OPENPGPKEY', 'PTR', 'SMIMEA', 'SRV', 'SSHFP', 'SVCB', 'TLSA', 'TXT', 'URI']
const PER_PAGE = 50
const state = { token: localStorage.getItem('edgedns-token') || new URLSearchParams(location.search).get('token') || 'dev-token', zone: null, page: 1 }

function toast(message, error = false) {
  const t = $('toast')
  t.textContent = message
  t.className = `show${error ? ' error' : ''}`
  clearTimeout(toast.timer)
  toast.timer = setTimeout(() => (t.className = ''), 5000)
}

async function api(method, path, body) {
  const res = await fetch(`/client/v4${path}`, {
    method,
    headers: { authorization: `Bearer ${state.token}`, 'content-type': 'application/json' },
    body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
  })
  const json = await res.json().catch(() => ({ success: false, errors: [{ code: res.status, message: res.statusText }] }))
  if (!json.success) {
    const e = json.errors?.[0] ?? { message: 'request failed' }
    throw new Error(`${e.code ?? res.status}: ${e.message}${e.source?.pointer ? ` (at ${e.source.pointer})` : ''}`)
  }
  return json
}

async function loadZones() {
  const ul = $('zones')
  ul.replaceChildren()
  const { result } = await api('GET', '/zones?per_page=50')
  for (const z of result) {
    const li = document.createElement('li')
    const b = document.createElement('button')
    b.textContent = z.name
    b.setAttribute('aria-current', String(state.zone?.id === z.id))
    b.onclick = () => selectZone(z)
    li.append(b)
    ul.append(li)
  }
  if (!state.zone && result[0]) selectZone(result[0])
}

async function selectZone(zone) {
  state.zone = zone
  state.page = 1
  $('zone-view').hidden = false
  $('zone-title').textContent = zone.name
  $('export-link').onclick = (ev) => (ev.preventDefault(), exportZone())
  if (!$('q-name').value) $('q-name').value = `www.${zone.name}`
  for (const b of $('zones').querySelectorAll('button')) b.setAttribute('aria-current', String(b.textContent === zone.name))
  await Promise.all([loadRecords(), loadPropagation()])
}

async function loadRecords() {
  const q = new URLSearchParams({ per_page: String(PER_PAGE), page: String(state.page), order: 'name' })
  if ($('filter-type').value) q.set('type', $('filter-type').value)
  if ($('filter-name').value) q.set('name.contains', $('filter-name').value)
  const { result, result_info: info } = await api('GET', `/zones/${state.zone.id}/dns_records?${q}`)
  const tbody = $('records')
  tbody.replaceChildren()
  for (const r of result) {
    const tr = document.createElement('tr')
    const cells = [r.type, r.name, r.priority !== undefined ? `${r.priority} ${r.content}` : r.content, r.ttl === 1 ? 'auto' : String(r.ttl), r.proxied ? 'yes' : '']
    cells.forEach((text, i) => {
      const td = document.createElement('td')
      td.textContent = text
      if (i === 2) td.className = 'content'
      tr.append(td)
    })
    const td = document.createElement('td')
    const del = document.createElement('button')
    del.textContent = 'Delete'
    del.setAttribute('aria-label', `delete ${r.type} ${r.name}`)
    del.onclick = async () => {
      try {
        await api('DELETE', `/zones/${state.zone.id}/dns_records/${r.id}`)
        toast(`Deleted ${r.type} ${r.name}`)
        await refresh()
      } catch (e) {
        toast(e.message, true)
      }
    }
    td.append(del)
    tr.append(td)
    tbody.append(tr)
  }
  $('page-info').textContent = `page ${info.page} of ${info.total_pages} · ${info.total_count} records`
  $('prev').disabled = info.page <= 1
  $('next').disabled = info.page >= info.total_pages
}

async function loadPropagation() {
  const pill = $('propagation')
  try {
    const { result } = await api('GET', `/zones/${state.zone.id}/propagation`)
    const behind = result.built_seq < result.committed_seq
    pill.textContent = behind ? `propagating ${result.built_seq}/${result.committed_seq}` : `live · seq ${result.committed_seq}`
    pill.className = `pill${behind ? ' behind' : ''}`
    if (behind) setTimeout(() => state.zone && loadPropagation(), 500)
  } catch {
    pill.textContent = ''
  }
}

async function refresh() {
  await Promise.all([loadRecords(), loadPropagation()])
}

async function exportZone() {
  const res = await fetch(`/client/v4/zones/${state.zone.id}/dns_records/export`, { headers: { authorization: `Bearer ${state.token}` } })
  if (!res.ok) return toast(`export failed: ${res.status}`, true)
  const url = URL.createObjectURL(new Blob([await res.text()], { type: 'text/plain' }))
  const a = Object.assign(document.createElement('a'), { href: url, download: `${state.zone.name}.zone` })
  a.click()
  URL.revokeObjectURL(url)
}

function fillTypes() {
  for (const sel of [$('rec-type'), $('filter-type')]) for (const t of TYPES) sel.append(new Option(t, t))
}

$('token').value = state.token
$('token-form').onsubmit = async (ev) => {
  ev.preventDefault()
  state.token = $('token').value || 'dev-token'
  localStorage.setItem('edgedns-token', state.token)
  state.zone = null
  await loadZones().catch((e) => toast(e.message, true))
}
$('zone-form').onsubmit = async (ev) => {
  ev.preventDefault()
  try {
    const { result } = await api('POST', '/zones', { name: $('zone-name').value })
    $('zone-name').value = ''
    toast(`Created ${result.name}`)
    state.zone = result
    await loadZones()
    await selectZone(result)
  } catch (e) {
    toast(e.message, true)
  }
}
$('filter-form').onsubmit = (ev) => (ev.preventDefault(), (state.page = 1), loadRecords().catch((e) => toast(e.message, true)))
$('prev').onclick = () => ((state.page -= 1), loadRecords())
$('next').onclick = () => ((state.page += 1), loadRecords())
$('record-form').onsubmit = async (ev) => {
  ev.preventDefault()
  const body = { type: $('rec-type').value, name: $('rec-name').value, content: $('rec-content').value, ttl: Number($('rec-ttl').value || 1), proxied: $('rec-proxied').checked }
  if ($('rec-priority').value) body.priority = Number($('rec-priority').value)
  try {
    const { result } = await api('POST', `/zones/${state.zone.id}/dns_records`, body)
    toast(`Added ${result.type} ${result.name}`)
    $('rec-name').value = ''
    $('rec-content').value = ''
    await refresh()
  } catch (e) {
    toast(e.message, true)
  }
}
$('batch-form').onsubmit = async (ev) => {
  ev.preventDefault()
  try {
    const { result } = await api('POST', `/zones/${state.zone.id}/dns_records/batch`, $('batch-body').value)
    const counts = Object.entries(result).map(([k, v]) => `${v.length} ${k}`).join(', ')
    toast(`Batch applied: ${counts}`)
    await refresh()
  } catch (e) {
    toast(`Batch rejected, nothing changed — ${e.message}`, true)
  }
}
$('query-form').onsubmit = async (ev) => {
  ev.preventDefault()
  const q = new URLSearchParams({ name: $('q-name').value, type: $('q-type').value || 'A' })
  const res = await fetch(`/dns-query?${q}`, { headers: { accept: 'application/dns-json' } })
  $('q-result').textContent = res.ok ? JSON.stringify(await res.json(), null, 2) : `HTTP ${res.status}: ${await res.text()}`
}

fillTypes()
loadZones().catch((e) => toast(e.message, true))
