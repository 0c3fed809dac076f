/**
 * @module Zone transfer forms: the account's peers, TSIG keys and ACLs, and a zone's incoming and
 * outgoing settings. Fields per list, API item ⇄ form values, and the API's errors placed on the
 * field they name (the secondary-DNS routes prefix a message with its field: `ip: …`).
 */

const TSIG_ALGORITHMS = ['hmac-sha256.', 'hmac-sha512.']

const trimmed = (s) => String(s ?? '').trim()
/** A number field's value: a number when it reads as one, else the text (the API names the error). */
const numeric = (s) => {
  const t = trimmed(s)
  return t !== '' && Number.isFinite(Number(t)) ? Number(t) : t
}
const optional = (key, value) => (value === '' ? {} : { [key]: value })

/** The address a peer is reached at, as the tables show it. */
export function peerAddress(peer) {
  if (!peer.ip) return 'no address yet'
  const host = peer.ip.includes(':') ? `[${peer.ip}]` : peer.ip
  return `${host}:${peer.port ?? 53}`
}

/**
 * The account's lists under /accounts/{id}/secondary_dns: `fields(ctx)` (ctx.tsigs: the account's
 * keys, for a peer's key), `columns` ([header, item → text]), `toValues(item)`, `toBody(values)`.
 */
export const ACCOUNT_LISTS = [
  {
    path: 'tsigs',
    title: 'TSIG keys',
    one: 'TSIG key',
    intro: 'Sign transfers and NOTIFY with a peer (RFC 8945). A key a peer uses cannot be deleted.',
    fields: () => [
      {
        key: 'name',
        label: 'Key name',
        kind: 'text',
        hint: 'as the other server names it, e.g. xfr.example',
      },
      { key: 'algo', label: 'Algorithm', kind: 'select', options: TSIG_ALGORITHMS },
      {
        key: 'secret',
        label: 'Secret (base64)',
        kind: 'text',
        hint: 'at least 16 bytes, e.g. from tsig-keygen',
      },
    ],
    columns: [
      ['Name', (t) => t.name],
      ['Algorithm', (t) => t.algo],
      ['Secret', (t) => `${'•'.repeat(8)} (${t.secret.length} characters)`],
    ],
    toValues: (t) => ({
      name: t?.name ?? '',
      algo: t?.algo ?? TSIG_ALGORITHMS[0],
      secret: t?.secret ?? '',
    }),
    toBody: (v) => ({ name: trimmed(v.name), algo: v.algo, secret: trimmed(v.secret) }),
  },
  {
    path: 'peers',
    title: 'Peers',
    one: 'peer',
    intro:
      'Name servers zones are transferred from (primaries of secondary zones) or to (secondaries notified of changes).',
    fields: ({ tsigs }) => [
      { key: 'name', label: 'Name', kind: 'text' },
      { key: 'ip', label: 'IP address', kind: 'text', hint: 'IPv4 or IPv6; may be set later' },
      {
        key: 'port',
        label: 'Port',
        kind: 'number',
        min: 1,
        max: 65535,
        hint: '53 when left empty',
      },
      {
        key: 'ixfr_enable',
        label: 'Ask IXFR first',
        kind: 'select',
        options: [
          { value: 'false', label: 'No: AXFR only' },
          { value: 'true', label: 'Yes: IXFR, AXFR when it fails' },
        ],
        hint: 'for zones transferred in from this peer',
      },
      {
        key: 'tsig_id',
        label: 'TSIG key',
        kind: 'select',
        options: [
          { value: '', label: 'None (unsigned)' },
          ...tsigs.map((t) => ({ value: t.id, label: t.name })),
        ],
      },
    ],
    columns: [
      ['Name', (p) => p.name],
      ['Address', peerAddress],
      ['IXFR', (p) => (p.ixfr_enable ? 'yes' : 'no')],
      [
        'TSIG key',
        (p, { tsigs }) =>
          p.tsig_id ? (tsigs.find((t) => t.id === p.tsig_id)?.name ?? p.tsig_id) : 'none',
      ],
    ],
    toValues: (p) => ({
      name: p?.name ?? '',
      ip: p?.ip ?? '',
      port: p?.port === undefined ? '' : String(p.port),
      ixfr_enable: String(Boolean(p?.ixfr_enable)),
      tsig_id: p?.tsig_id ?? '',
    }),
    // PUT replaces a peer: what is left out (an empty address, no key) is cleared.
    toBody: (v) => ({
      name: trimmed(v.name),
      ...optional('ip', trimmed(v.ip)),
      ...optional('port', numeric(v.port)),
      ixfr_enable: v.ixfr_enable === 'true',
      ...optional('tsig_id', v.tsig_id),
    }),
  },
  {
    path: 'acls',
    title: 'Transfer ACLs',
    one: 'ACL',
    intro: 'Address ranges allowed to ask the account’s zones by AXFR/IXFR.',
    fields: () => [
      { key: 'name', label: 'Name', kind: 'text' },
      {
        key: 'ip_range',
        label: 'Address range',
        kind: 'text',
        hint: 'CIDR, e.g. 192.0.2.0/24 or 2001:db8::/32',
      },
    ],
    columns: [
      ['Name', (a) => a.name],
      ['Range', (a) => a.ip_range],
    ],
    toValues: (a) => ({ name: a?.name ?? '', ip_range: a?.ip_range ?? '' }),
    toBody: (v) => ({ name: trimmed(v.name), ip_range: trimmed(v.ip_range) }),
  },
]

/** A zone's incoming settings (a secondary zone's primaries, asked in order) as form values. */
export function incomingValues(settings) {
  return {
    peers: settings?.peers ?? [],
    auto_refresh_seconds: String(settings?.auto_refresh_seconds ?? 86400),
  }
}

export function incomingBody(zone, v) {
  return { name: zone.name, peers: v.peers, auto_refresh_seconds: numeric(v.auto_refresh_seconds) }
}

export function outgoingBody(zone, v) {
  return { name: zone.name, peers: v.peers }
}

/** Peers picked in order: a peer checked goes last, one unchecked leaves the order of the rest. */
export function togglePeer(peers, id, checked) {
  const rest = peers.filter((p) => p !== id)
  return checked ? [...rest, id] : rest
}

/** What a secondary zone's copy lacks (`skipped_records`), one line a type. */
export function skippedLines(skipped) {
  return (skipped ?? []).map(
    (s) =>
      `${s.count.toLocaleString('en')} ${s.type} record${s.count === 1 ? '' : 's'}: ${s.reason}`
  )
}

/** Whether a secondary zone answers queries, and why not. */
export function servingText(settings) {
  if (settings.serving !== false) return 'yes'
  return settings.soa_serial === undefined
    ? 'no: it holds no copy yet'
    : 'no: its copy passed the SOA expire without a primary confirming it'
}

/** The last check's failure, with how many failed in a row. */
export function failedText(settings) {
  const n = settings.failed_checks ?? 1
  return `The last ${n === 1 ? 'check' : `${n} checks`} of the primaries failed: ${settings.last_error}`
}

/** A duration in seconds as people read it (3600 → "1 h", 90 → "1 min 30 s"). */
export function duration(seconds) {
  const parts = []
  let s = Math.round(seconds)
  for (const [unit, size] of [
    ['d', 86400],
    ['h', 3600],
    ['min', 60],
  ]) {
    if (s >= size) parts.push(`${Math.floor(s / size)} ${unit}`)
    s %= size
  }
  if (s > 0 || parts.length === 0) parts.push(`${s} s`)
  return parts.join(' ')
}

/** The API's errors by the field they name (`_form` for the rest). */
export function transferErrors(failure, keys) {
  const out = {}
  for (const e of failure.errors ?? [{ message: String(failure.message) }]) {
    const named = /^([a-z_]+)\b/.exec(e.message)?.[1]
    const key =
      named && keys.includes(named) && /^[a-z_]+(\.|:|\[)/.test(e.message) ? named : '_form'
    out[key] = out[key] ? `${out[key]}; ${e.message}` : e.message
  }
  return out
}
