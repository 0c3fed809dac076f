/**
 * @module Transfer settings of the transfer benchmarks, through the API as a user would make them:
 * a TSIG key (reused when the account has one of that name), a peer with it, and a zone's outgoing
 * transfers enabled; and outgoing transfers enabled for every zone of an account written straight
 * into D1 (the rows the API writes; thousands of zones would take thousands of API calls).
 */

/** The account's peer `name` at `ip`:`port` with TSIG `key` ({ name, secret }, hmac-sha256); its id. */
export async function makePeer(
  api,
  accountId,
  { name, ip = '127.0.0.1', port, ixfr = false, key }
) {
  const base = `/accounts/${accountId}/secondary_dns`
  const keys = (await api.call('GET', `${base}/tsigs`)).result
  const tsigId =
    keys.find((k) => k.name === key.name)?.id ??
    (
      await api.call('POST', `${base}/tsigs`, {
        name: key.name,
        algo: 'hmac-sha256.',
        secret: key.secret,
      })
    ).result.id
  const id = (await api.call('POST', `${base}/peers`, { name })).result.id
  await api.call('PUT', `${base}/peers/${id}`, {
    name,
    ip,
    port,
    ixfr_enable: ixfr,
    tsig_id: tsigId,
  })
  return id
}

/** The zone's ({ id, name }) outgoing transfers to `peerId`, enabled, through the API. */
export async function enableOutgoing(api, zone, peerId) {
  await api.call('POST', `/zones/${zone.id}/secondary_dns/outgoing`, {
    name: zone.name,
    peers: [peerId],
  })
  await api.call('POST', `/zones/${zone.id}/secondary_dns/outgoing/enable`)
}

/** Outgoing transfers enabled to `peerId` for every zone of the account, as the API stores them. */
export async function enableOutgoingForAccount(db, accountId, peerId) {
  await db
    .prepare(
      `INSERT INTO zone_transfers_outgoing (zone_id, name, peers, enabled, created_on, modified_on)
       SELECT id, name, json_array(?2), 1, ?3, ?3 FROM zones WHERE account_id = ?1`
    )
    .bind(accountId, peerId, new Date().toISOString())
    .run()
}
