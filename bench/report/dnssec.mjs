/** @module BENCHMARKS.md: signed answers (DO=1) against unsigned ones on the same names. */
import { n0, ratio, verdict } from './format.mjs'

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]

export function renderDnssec(d, md, targets) {
  const hitRate = d.signatureHits + d.signatureMisses > 0 ? d.signatureHits / (d.signatureHits + d.signatureMisses) : null
  md.push('## Signed answers (DNSSEC)', '')
  md.push(`A ${n0(d.size)}-record zone (\`${d.zone}\`) with DNSSEC active (one ECDSA P-256 key, tag ${d.keyTag}); the pool of 2,000 existing names asked as RFC 8484 GETs with EDNS, once with DO=1 (the answer's A set signed: RRSIG from the isolate's signature cache, made on first use) and once with DO=0 (unsigned, byte for byte what an unsigned zone answers), ${d.plan.reps} alternating runs of ${d.plan.duration} s each at saturation (${d.plan.connections} connections) after a warm-up of both, on the DoH worker's own socket. Encoded answers are reused from the answer cache in both cases (DO=1 and DO=0 queries differ in their bytes); the signature cache's hits and misses are the DoH worker's own counters over the signed runs.`, '')
  md.push('| zone | records | DO=1 (signed) q/s, median | DO=0 (unsigned) q/s, median | signed ÷ unsigned | signature cache hits |', '|---|---:|---:|---:|---:|---:|')
  md.push(`| ${d.zone} | ${n0(d.size)} | ${n0(median(d.signed))} | ${n0(median(d.unsigned))} | ${ratio(d.ratio)} | ${hitRate === null ? '– (every signed answer came from the answer cache)' : `${(hitRate * 100).toFixed(1)} % (${n0(d.signatureHits)} of ${n0(d.signatureHits + d.signatureMisses)})`} |`, '')
  targets.push(['DNSSEC', 'signed answers (DO=1) ÷ unsigned, warm ≥ 0.5', ratio(d.ratio), verdict(d.ratio >= 0.5)])
  targets.push(['DNSSEC', 'signature cache hit rate (signed runs)', hitRate === null ? '– (answers reused whole)' : `${(hitRate * 100).toFixed(1)} %`, '(reported)'])
}
