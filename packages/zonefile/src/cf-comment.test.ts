import { describe, expect, it } from 'vitest'
import { formatCfComment, parseCfComment } from './index.ts'

describe('parseCfComment', () => {
  it('splits comment, tags (quoted values with commas) and reserved flags', () => {
    expect(parseCfComment('my comment cf_tags=env:prod,team:"a,b" cf-proxied:true')).toEqual({
      comment: 'my comment',
      tags: ['env:prod', 'team:a,b'],
      proxied: true,
    })
  })

  it('reads cf-proxied:false and a bare cf-flatten-cname', () => {
    expect(parseCfComment('cf_tags=cf-proxied:false,cf-flatten-cname,x')).toEqual({
      tags: ['x'],
      proxied: false,
      flattenCname: true,
    })
  })

  it('returns only the comment when there are no tags, and nothing for empty input', () => {
    expect(parseCfComment('just text; with semicolon')).toEqual({
      comment: 'just text; with semicolon',
      tags: [],
    })
    expect(parseCfComment(undefined)).toEqual({ tags: [] })
    expect(parseCfComment('  ')).toEqual({ tags: [] })
    expect(parseCfComment('; starts with a semicolon')).toEqual({
      comment: '; starts with a semicolon',
      tags: [],
    })
  })

  it('unescapes quotes and backslashes inside quoted values', () => {
    expect(parseCfComment('cf_tags=a:"say \\"hi\\" \\\\ ok"').tags).toEqual(['a:say "hi" \\ ok'])
  })

  it('does not treat words merely containing cf_tags= as the marker', () => {
    expect(parseCfComment('see xcf_tags=1')).toEqual({ comment: 'see xcf_tags=1', tags: [] })
  })
})

describe('formatCfComment', () => {
  it('returns an empty string when there is nothing to write', () => {
    expect(formatCfComment({})).toBe('')
    expect(formatCfComment({ comment: null, tags: [] })).toBe('')
  })

  it('writes the comment, then cf_tags with quoted values and cf-proxied', () => {
    expect(
      formatCfComment({ comment: 'web', tags: ['env:prod', 'team:a,b'], proxied: false })
    ).toBe('web cf_tags=env:prod,team:"a,b",cf-proxied:false')
    expect(formatCfComment({ proxied: true })).toBe('cf_tags=cf-proxied:true')
    expect(formatCfComment({ comment: 'line\nbreak' })).toBe('line break')
  })

  it('round-trips through parseCfComment', () => {
    const cases = [
      { comment: 'hello world', tags: ['a', 'b:c', 'team:"x, y"', 'k:back\\slash'], proxied: true },
      { tags: ['only:tags', 'spaced:a b'] },
      { comment: 'flattened', tags: [], flattenCname: true },
      { comment: 'no tags', tags: [] },
      // text that reads as the marker, in the comment and inside a tag's value
      { comment: 'see cf_tags=a,b', tags: [] },
      { comment: ';', tags: ['x'] },
      { comment: 'cf_tags=', tags: ['x'] },
      { tags: ['note:a cf_tags=b', 'eq:x=y z'] },
    ]
    for (const c of cases) expect(parseCfComment(formatCfComment(c))).toEqual(c)
  })
})
