/** @module Formatting helpers shared by the report sections. */
import { fmtMs } from '../lib/stats.mjs'

export const n0 = (x) => (Number.isFinite(x) ? Math.round(x).toLocaleString('en-US') : '–')
export const ms2 = (x) => (Number.isFinite(x) ? (x < 10 ? `${x.toFixed(2)} ms` : fmtMs(x)) : '–')
/** median (min–max) of a summarize() result with a formatter. */
export const range = (s, f = ms2) =>
  s && Number.isFinite(s.median) ? `${f(s.median)} (${f(s.min)}–${f(s.max)})` : '–'
export const verdict = (ok) =>
  ok === null || ok === undefined ? '–' : ok ? '**met**' : '**not met**'
export const mb = (x) => (Number.isFinite(x) ? `${Math.round(x)} MB` : '–')
export const ratio = (x) => (Number.isFinite(x) ? x.toFixed(2) : '–')
