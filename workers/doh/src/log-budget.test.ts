import { describe, expect, it } from 'vitest'
import { LogBudget } from './log-budget.ts'

describe('LogBudget', () => {
  it('lets `limit` lines through per window, holds the rest back and reports their count with the next line', () => {
    let now = 0
    const budget = new LogBudget(2, 1000, () => now)
    expect(budget.take()).toEqual({ log: true, held: 0 })
    expect(budget.take()).toEqual({ log: true, held: 0 })
    expect(budget.take()).toEqual({ log: false })
    expect(budget.take()).toEqual({ log: false })
    now = 999
    expect(budget.take()).toEqual({ log: false })
    now = 1000
    expect(budget.take()).toEqual({ log: true, held: 3 })
    expect(budget.take()).toEqual({ log: true, held: 0 })
    expect(budget.take()).toEqual({ log: false })
  })
})
