/** @module Small statistics helpers: medians with min/max, percentiles, formatting. */

export function summarize(samples) {
  const s = [...samples].sort((a, b) => a - b)
  const q = (p) => s[Math.min(s.length - 1, Math.floor(p * (s.length - 1) + 0.5))]
  return { n: s.length, median: q(0.5), min: s[0], max: s.at(-1), p99: q(0.99), samples }
}

export function fmtMs(ms) {
  if (ms === undefined || ms === null || Number.isNaN(ms)) return '–'
  if (ms >= 10_000) return `${(ms / 1000).toFixed(1)} s`
  if (ms >= 1000) return `${(ms / 1000).toFixed(2)} s`
  if (ms >= 10) return `${ms.toFixed(0)} ms`
  return `${ms.toFixed(1)} ms`
}

export function fmtRange(sum) {
  return `${fmtMs(sum.median)} (${fmtMs(sum.min)}–${fmtMs(sum.max)})`
}

export function fmtRatio(x) {
  if (!Number.isFinite(x)) return '–'
  return x >= 100 ? `${Math.round(x).toLocaleString('en-US')}×` : `${x.toFixed(1)}×`
}
