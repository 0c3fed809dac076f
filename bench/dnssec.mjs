/**
 * @module Signed answers (issue "DNSSEC"): one 1,000-record zone with DNSSEC active, the same pool
 * of existing names asked with DO=1 (signed: RRSIGs from the isolate's signature cache) and with
 * DO=0 (unsigned), interleaved run by run on the DoH worker's own socket; throughput of signed
 * answers as a ratio to unsigned ones, and the signature cache's hit rate over the signed runs.
 */
import { createBenchZone, queryNames } from './lib/fixtures.mjs'
import { dohStats, loadPlan, measureSaturation, warmUp } from './lib/dohload.mjs'
import { base64url, encodeQuery, parseHeader } from './lib/dnswire.mjs'

const ZONE = 'signed.bench.example'
const SIZE = 1000

const paths = (names, dnssecOk) =>
  names.map((n) => `/dns-query?dns=${base64url(encodeQuery(n, 'A', { dnssecOk }))}`)

async function waitActive(api, zoneId) {
  for (let i = 0; i < 600; i++) {
    const { result } = await api.call('GET', `/zones/${zoneId}/dnssec`)
    if (result.status === 'active') return result
    await new Promise((r) => setTimeout(r, 50))
  }
  throw new Error('DNSSEC did not become active within 30 s')
}

export async function runDnssecBench({ api, stack, quick, log }) {
  const zone = await createBenchZone({ api, log }, ZONE, SIZE)
  await api.call('PATCH', `/zones/${zone.id}/dnssec`, { status: 'active' })
  const state = await waitActive(api, zone.id)
  const names = queryNames(ZONE, SIZE, 'existing')
  const signed = paths(names, true)
  const unsigned = paths(names, false)
  // A signed answer carries RRSIGs: check one before loading.
  const probe = Buffer.from(await (await fetch(`${stack.dohUrl}${signed[0]}`)).arrayBuffer())
  const h = parseHeader(probe)
  if (h.rcode !== 'NOERROR' || h.an < 2)
    throw new Error(
      `signed probe answered ${h.rcode} with ${h.an} answers (expected the A set and its RRSIG)`
    )
  const plan = loadPlan(quick)
  const start = await dohStats(stack.dohUrl)
  await warmUp({ url: stack.dohUrl, paths: signed })
  await warmUp({ url: stack.dohUrl, paths: unsigned })
  const runs = { signed: [], unsigned: [] }
  let hits = 0
  let misses = 0
  for (let r = 0; r < plan.reps; r++) {
    const one = { ...plan, reps: 1 }
    runs.unsigned.push(
      (await measureSaturation({ url: stack.dohUrl, paths: unsigned, plan: one })).rps.median
    )
    const before = await dohStats(stack.dohUrl)
    runs.signed.push(
      (await measureSaturation({ url: stack.dohUrl, paths: signed, plan: one })).rps.median
    )
    const after = await dohStats(stack.dohUrl)
    hits += after.signatureHits - before.signatureHits
    misses += after.signatureMisses - before.signatureMisses
  }
  const end = await dohStats(stack.dohUrl)
  const med = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]
  const out = {
    zone: ZONE,
    size: SIZE,
    keyTag: state.key_tag,
    plan,
    signed: runs.signed,
    unsigned: runs.unsigned,
    ratio: med(runs.signed) / med(runs.unsigned),
    signatureHits: hits,
    signatureMisses: misses,
    withWarmUp: {
      signatureHits: end.signatureHits - start.signatureHits,
      signatureMisses: end.signatureMisses - start.signatureMisses,
      answerHits: end.answerHits - start.answerHits,
      answerMisses: end.answerMisses - start.answerMisses,
    },
  }
  log(
    `dnssec: signed ${Math.round(med(runs.signed))} q/s, unsigned ${Math.round(med(runs.unsigned))} q/s (ratio ${out.ratio.toFixed(2)}); signature cache ${hits} hits / ${misses} misses in the runs, ${out.withWarmUp.signatureHits} / ${out.withWarmUp.signatureMisses} with the warm-up`
  )
  return out
}
