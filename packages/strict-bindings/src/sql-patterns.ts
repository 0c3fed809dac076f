/** @module The LIKE/GLOB pattern operands of a SQL statement, as strict D1 checks them. */

export interface LikeOperand {
  /** Literal pieces and parameter indexes (0-based) concatenated with `||`. */
  parts: ({ literal: string } | { param: number })[]
}

export interface ParsedSql {
  /** LIKE/GLOB pattern operands made only of literals and parameters. */
  patterns: LikeOperand[]
}

/**
 * Finds the pattern operand of every LIKE/GLOB (string literals and `?`/`?N` parameters joined by
 * `||`), numbering parameters the way SQLite does (a bare `?` takes the largest index so far + 1).
 * Operands involving columns or functions are computed in SQL and cannot be checked here.
 */
export function parseSql(sql: string): ParsedSql {
  type Tok =
    | { kind: 'str'; value: string }
    | { kind: 'param'; index: number }
    | { kind: 'word'; value: string }
    | { kind: 'op'; value: string }
  const toks: Tok[] = []
  let maxParam = 0
  for (let i = 0; i < sql.length;) {
    const ch = sql[i]!
    if (/\s/.test(ch)) {
      i++
    } else if (ch === "'") {
      let j = i + 1
      let value = ''
      for (;;) {
        if (j >= sql.length) break
        if (sql[j] === "'") {
          if (sql[j + 1] === "'") {
            value += "'"
            j += 2
            continue
          }
          break
        }
        value += sql[j]
        j++
      }
      toks.push({ kind: 'str', value })
      i = j + 1
    } else if (ch === '"' || ch === '`') {
      const end = sql.indexOf(ch, i + 1)
      toks.push({ kind: 'word', value: sql.slice(i + 1, end < 0 ? sql.length : end) })
      i = end < 0 ? sql.length : end + 1
    } else if (ch === '-' && sql[i + 1] === '-') {
      const end = sql.indexOf('\n', i)
      i = end < 0 ? sql.length : end + 1
    } else if (ch === '/' && sql[i + 1] === '*') {
      const end = sql.indexOf('*/', i + 2)
      i = end < 0 ? sql.length : end + 2
    } else if (ch === '?') {
      let j = i + 1
      while (j < sql.length && /[0-9]/.test(sql[j]!)) j++
      const index = j > i + 1 ? Number(sql.slice(i + 1, j)) : maxParam + 1
      maxParam = Math.max(maxParam, index)
      toks.push({ kind: 'param', index: index - 1 })
      i = j
    } else if (/[A-Za-z_]/.test(ch)) {
      let j = i + 1
      while (j < sql.length && /[A-Za-z0-9_$]/.test(sql[j]!)) j++
      toks.push({ kind: 'word', value: sql.slice(i, j) })
      i = j
    } else if (ch === '|' && sql[i + 1] === '|') {
      toks.push({ kind: 'op', value: '||' })
      i += 2
    } else {
      toks.push({ kind: 'op', value: ch })
      i++
    }
  }
  const patterns: LikeOperand[] = []
  for (let t = 0; t < toks.length; t++) {
    const tok = toks[t]!
    if (tok.kind !== 'word' || !/^(like|glob)$/i.test(tok.value)) continue
    const parts: LikeOperand['parts'] = []
    let k = t + 1
    let computable = true
    for (;;) {
      const operand = toks[k]
      if (operand?.kind === 'str') parts.push({ literal: operand.value })
      else if (operand?.kind === 'param') parts.push({ param: operand.index })
      else {
        computable = false
        break
      }
      const next = toks[k + 1]
      if (next?.kind === 'op' && next.value === '||') k += 2
      else break
    }
    if (computable && parts.length > 0) patterns.push({ parts })
  }
  return { patterns }
}
