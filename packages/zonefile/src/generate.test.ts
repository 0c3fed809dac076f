import { describe, expect, it } from 'vitest'
import { parseZoneFile, ZoneFileError } from './index.ts'

const gen = (line: string) =>
  parseZoneFile(`$TTL 60\n${line}\n`, { origin: 'example.com' }).map((e) => `${e.name} ${e.rdata}`)

describe('$GENERATE', () => {
  it('expands $ in owner and rdata over the range', () => {
    expect(gen('$GENERATE 1-3 host-$ A 192.0.2.$')).toEqual([
      'host-1.example.com 192.0.2.1',
      'host-2.example.com 192.0.2.2',
      'host-3.example.com 192.0.2.3',
    ])
  })

  it('honours the step', () => {
    expect(gen('$GENERATE 0-10/5 h$ A 10.0.0.$').map((s) => s.split(' ')[0])).toEqual([
      'h0.example.com',
      'h5.example.com',
      'h10.example.com',
    ])
  })

  it('applies offset, width and the d, o, x and X bases', () => {
    expect(gen('$GENERATE 10-10 a${0,4,d} TXT ${-2} ${0,4,o} ${5,3,x} ${5,3,X}')).toEqual([
      'a0010.example.com 8 0012 00f 00F',
    ])
  })

  it('formats nibbles like BIND (width counts the dots)', () => {
    expect(gen('$GENERATE 18-18 ${0,3,n} PTR h${0,4,N}x.')).toEqual(['2.1.example.com h2.1.x.'])
    expect(gen('$GENERATE 1-1 ${0,5,n} PTR x.')).toEqual(['1.0.0.example.com x.'])
    expect(gen('$GENERATE 171-171 ${0,0,N} PTR x.')).toEqual(['b.a.example.com x.'])
  })

  it('keeps \\$ and $$ as a literal dollar', () => {
    expect(gen('$GENERATE 1-1 h$ TXT "cost \\$$ $$"')).toEqual(['h1.example.com "cost $1 $"'])
  })

  it('accepts optional TTL and class and keeps the line comment', () => {
    const [e] = parseZoneFile('$GENERATE 2-2 h$ IN 30 CNAME t$. ; gen\n', {
      origin: 'example.com',
    })
    expect(e).toMatchObject({
      name: 'h2.example.com',
      ttl: 30,
      type: 'CNAME',
      rdata: 't2.',
      comment: 'gen',
      line: 1,
    })
  })

  it('does not change the owner that blank-owner lines inherit (like BIND)', () => {
    expect(gen('t TXT "a"\n$GENERATE 1-1 g$ A 1.1.1.$\n  TXT "b"')).toEqual([
      't.example.com "a"',
      'g1.example.com 1.1.1.1',
      't.example.com "b"',
    ])
  })

  it('reports bad ranges, modifiers and negative values with their position', () => {
    const at = (line: string) => {
      try {
        gen(line)
      } catch (err) {
        if (err instanceof ZoneFileError) return [err.column, err.reason]
      }
      return undefined
    }
    expect(at('$GENERATE 5-1 h$ A 1.1.1.$')).toEqual([11, 'bad $GENERATE range "5-1"'])
    expect(at('$GENERATE 1-5/0 h$ A 1.1.1.$')).toEqual([11, 'bad $GENERATE range "1-5/0"'])
    expect(at('$GENERATE 1-5 h${1,2,q} A 1.1.1.$')).toEqual([16, 'bad $GENERATE modifier'])
    expect(at('$GENERATE 1-5 h${1 A 1.1.1.$')).toEqual([16, 'bad $GENERATE modifier'])
    expect(at('$GENERATE 1-5 h$ A 1.1.1.${-2}')).toEqual([26, '$GENERATE value out of range'])
    expect(at('$GENERATE 1-5 h$')).toEqual([17, 'missing record type'])
    expect(at('$GENERATE 1-5')).toEqual([10, '$GENERATE needs a range, owner, type and rdata'])
  })
})
