/** @module Minimal SVG line charts (log-log friendly) for BENCHMARKS.md, no dependencies. */

const COLORS = ['#1f77b4', '#d62728', '#2ca02c', '#9467bd', '#ff7f0e', '#8c564b']

/**
 * series: [{ name, points: [[x, y], ...] }]; axes may be logarithmic.
 */
export function lineChart({
  title,
  xLabel,
  yLabel,
  series,
  logX = false,
  logY = false,
  width = 640,
  height = 360,
}) {
  const m = { l: 70, r: 160, t: 36, b: 48 }
  const pts = series
    .flatMap((s) => s.points)
    .filter(
      ([x, y]) => Number.isFinite(x) && Number.isFinite(y) && (!logX || x > 0) && (!logY || y > 0)
    )
  const tx = logX ? Math.log10 : (v) => v
  const ty = logY ? Math.log10 : (v) => v
  const xs = pts.map(([x]) => tx(x))
  const ys = pts.map(([, y]) => ty(y))
  let [x0, x1] = [Math.min(...xs), Math.max(...xs)]
  let [y0, y1] = [Math.min(...ys), Math.max(...ys)]
  if (logY) [y0, y1] = [Math.floor(y0), Math.ceil(y1)]
  if (!logY) y0 = Math.min(0, y0)
  if (x0 === x1) x1 = x0 + 1
  if (y0 === y1) y1 = y0 + 1
  const W = width - m.l - m.r
  const H = height - m.t - m.b
  const px = (x) => m.l + ((tx(x) - x0) / (x1 - x0)) * W
  const py = (y) => m.t + H - ((ty(y) - y0) / (y1 - y0)) * H
  const out = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" font-family="sans-serif" font-size="12">`,
  ]
  out.push(`<rect width="100%" height="100%" fill="white"/>`)
  out.push(`<text x="${m.l}" y="20" font-size="14" font-weight="bold">${esc(title)}</text>`)
  // y grid
  const yticks = logY ? range(y0, y1).map((e) => 10 ** e) : niceTicks(y0, y1)
  for (const v of yticks) {
    const y = py(v)
    out.push(`<line x1="${m.l}" x2="${m.l + W}" y1="${y}" y2="${y}" stroke="#ddd"/>`)
    out.push(`<text x="${m.l - 6}" y="${y + 4}" text-anchor="end">${fmt(v)}</text>`)
  }
  const xticks = logX ? range(Math.floor(x0), Math.ceil(x1)).map((e) => 10 ** e) : niceTicks(x0, x1)
  for (const v of xticks) {
    const x = px(v)
    out.push(`<line x1="${x}" x2="${x}" y1="${m.t}" y2="${m.t + H}" stroke="#eee"/>`)
    out.push(`<text x="${x}" y="${m.t + H + 16}" text-anchor="middle">${fmt(v)}</text>`)
  }
  out.push(`<text x="${m.l + W / 2}" y="${height - 8}" text-anchor="middle">${esc(xLabel)}</text>`)
  out.push(
    `<text transform="translate(14 ${m.t + H / 2}) rotate(-90)" text-anchor="middle">${esc(yLabel)}</text>`
  )
  series.forEach((s, i) => {
    const c = COLORS[i % COLORS.length]
    const ok = s.points.filter(
      ([x, y]) => Number.isFinite(x) && Number.isFinite(y) && (!logX || x > 0) && (!logY || y > 0)
    )
    if (ok.length > 0) {
      out.push(
        `<polyline fill="none" stroke="${c}" stroke-width="2" ${s.dashed ? 'stroke-dasharray="5 4"' : ''} points="${ok.map(([x, y]) => `${px(x).toFixed(1)},${py(y).toFixed(1)}`).join(' ')}"/>`
      )
      for (const [x, y] of ok)
        out.push(`<circle cx="${px(x).toFixed(1)}" cy="${py(y).toFixed(1)}" r="3" fill="${c}"/>`)
    }
    out.push(`<rect x="${m.l + W + 14}" y="${m.t + i * 18}" width="12" height="3" fill="${c}"/>`)
    out.push(`<text x="${m.l + W + 30}" y="${m.t + i * 18 + 5}">${esc(s.name)}</text>`)
  })
  out.push('</svg>')
  return out.join('\n')
}

/** Histogram-style bars: [{label, value}] */
export function barChart({ title, yLabel, bars, width = 640, height = 320 }) {
  const m = { l: 70, r: 20, t: 36, b: 60 }
  const W = width - m.l - m.r
  const H = height - m.t - m.b
  const max = Math.max(...bars.map((b) => b.value), 1)
  const ticks = niceTicks(0, max)
  const top = Math.max(ticks.at(-1), max)
  const out = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" font-family="sans-serif" font-size="12">`,
    `<rect width="100%" height="100%" fill="white"/>`,
  ]
  out.push(`<text x="${m.l}" y="20" font-size="14" font-weight="bold">${esc(title)}</text>`)
  for (const v of ticks) {
    const y = m.t + H - (v / top) * H
    out.push(
      `<line x1="${m.l}" x2="${m.l + W}" y1="${y}" y2="${y}" stroke="#ddd"/><text x="${m.l - 6}" y="${y + 4}" text-anchor="end">${fmt(v)}</text>`
    )
  }
  const bw = W / bars.length
  bars.forEach((b, i) => {
    const h = (b.value / top) * H
    const x = m.l + i * bw + bw * 0.15
    out.push(
      `<rect x="${x}" y="${m.t + H - h}" width="${bw * 0.7}" height="${h}" fill="${COLORS[i % COLORS.length]}"/>`
    )
    out.push(
      `<text x="${x + bw * 0.35}" y="${m.t + H + 16}" text-anchor="middle">${esc(b.label)}</text>`
    )
    out.push(
      `<text x="${x + bw * 0.35}" y="${m.t + H - h - 4}" text-anchor="middle">${fmt(b.value)}</text>`
    )
  })
  out.push(
    `<text transform="translate(14 ${m.t + H / 2}) rotate(-90)" text-anchor="middle">${esc(yLabel)}</text>`,
    '</svg>'
  )
  return out.join('\n')
}

function range(a, b) {
  const r = []
  for (let i = a; i <= b; i++) r.push(i)
  return r
}

function niceTicks(a, b) {
  const span = b - a
  const step = 10 ** Math.floor(Math.log10(span / 4 || 1))
  const mult = [1, 2, 5, 10].find((k) => span / (k * step) <= 6) ?? 10
  const s = mult * step
  const out = []
  for (let v = Math.ceil(a / s) * s; v <= b + 1e-9; v += s) out.push(Number(v.toPrecision(12)))
  return out
}

function fmt(v) {
  if (v >= 1e6) return `${v / 1e6}M`
  if (v >= 1e3) return `${v / 1e3}k`
  return String(Number(v.toPrecision(3)))
}

function esc(s) {
  return String(s).replace(/[<>&]/g, (c) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;' })[c])
}
