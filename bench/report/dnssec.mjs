/** @module BENCHMARKS.md: signed answers (DO=1) against unsigned ones on the same names. */
import { n0, ratio, verdict } from './format.mjs'

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]

export function renderDnssec(d, md, targets) {
  const hitRate =
    d.signatureHits + d.signatureMisses > 0
      ? d.signatureHits / (d.signatureHits + d.signatureMisses)
      : null
  md.push('## Signed answers (DNSSEC)', '')
  md.push(
    `A ${n0(d.size)}-record zone (\`${d.zone}\`) with DNSSEC active (one ECDSA P-256 key, tag ${d.keyTag}); the pool of 2,000 existing names asked as RFC 8484 GETs with EDNS, once with DO=1 (the answer's A set signed: RRSIG from the isolate's signature cache, made on first use) and once with DO=0 (unsigned, byte for byte what an unsigned zone answers), ${d.plan.reps} alternating runs of ${d.plan.duration} s each at saturation (${d.plan.connections} connections) after a warm-up of both, on the DoH worker's own socket. Encoded answers are reused from the answer cache in both cases (DO=1 and DO=0 queries differ in their bytes); the signature cache's hits and misses are the DoH worker's own counters over the signed runs.`,
    ''
  )
  const w = d.withWarmUp
  md.push(
    '| zone | records | DO=1 (signed) q/s, median | DO=0 (unsigned) q/s, median | signed ÷ unsigned | signature cache in the runs | signatures made / reused, warm-up included | answers reused, warm-up included |',
    '|---|---:|---:|---:|---:|---:|---:|---:|'
  )
  md.push(
    `| ${d.zone} | ${n0(d.size)} | ${n0(median(d.signed))} | ${n0(median(d.unsigned))} | ${ratio(d.ratio)} | ${hitRate === null ? 'not consulted: every signed answer was reused whole' : `${(hitRate * 100).toFixed(1)} % hits (${n0(d.signatureHits)} of ${n0(d.signatureHits + d.signatureMisses)})`} | ${w ? `${n0(w.signatureMisses)} / ${n0(w.signatureHits)}` : '–'} | ${w ? `${((w.answerHits / Math.max(1, w.answerHits + w.answerMisses)) * 100).toFixed(1)} %` : '–'} |`,
    ''
  )
  md.push(
    'A signature is made once per RRset and key (the first DO=1 query of a name) and kept for a day; after that a signed answer is usually reused whole from the answer cache, so the signature cache is consulted only when an answer is not (another spelling of the name, a changed zone).',
    ''
  )
  targets.push([
    'DNSSEC',
    'signed answers (DO=1) ÷ unsigned, warm ≥ 0.5',
    ratio(d.ratio),
    verdict(d.ratio >= 0.5),
  ])
  targets.push([
    'DNSSEC',
    'signature cache hit rate (signed runs)',
    hitRate === null
      ? `not consulted in the runs (answers reused whole); ${d.withWarmUp ? `${n0(d.withWarmUp.signatureMisses)} signatures made, ${n0(d.withWarmUp.signatureHits)} reused, warm-up included` : ''}`
      : `${(hitRate * 100).toFixed(1)} %`,
    '(reported)',
  ])
}
