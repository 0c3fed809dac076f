/**
 * @module parser — parseZoneFile: turns master-file text into ZoneEntry values, handling owners,
 * TTL inheritance (RFC 2308 / BIND) and the $ORIGIN, $TTL, $GENERATE and $INCLUDE directives.
 */
import { ZoneFileError, type Position } from './errors.ts'
import { joinRdata, parseFields, rdataSeparators, type RecordFields } from './fields.ts'
import { compileTemplate, expand, parseRange } from './generate.ts'
import { after, DEFAULT_LINE_LIMITS, logicalLines, type LogicalLine, type Token } from './lexer.ts'
import { displayName, normalizeOrigin, resolveName } from './names.ts'
import { parseTtl } from './ttl.ts'
import type { ParseOptions, ZoneEntry } from './types.ts'

const DEFAULT_MAX_RECORDS = 1_000_000

class Parser {
  readonly entries: ZoneEntry[] = []
  private origin: string
  private readonly max: number
  private readonly fallbackTtl: number | undefined
  /** $TTL value, once seen (or the SOA minimum when the SOA had to supply the TTL). */
  private zoneTtl: number | undefined
  /** Last explicit TTL (RFC 1035 inheritance, used while no $TTL is known). */
  private lastTtl: number | undefined
  private previousOwner: string | undefined

  constructor(opts: ParseOptions) {
    this.origin = normalizeOrigin(opts.origin)
    this.max = opts.maxRecords ?? DEFAULT_MAX_RECORDS
    this.fallbackTtl = opts.defaultTtl
  }

  line(ll: LogicalLine): void {
    const first = ll.tokens[0]!
    if (!ll.blankOwner && !first.quoted && first.text.startsWith('$')) this.directive(ll)
    else this.record(ll)
  }

  private record(ll: LogicalLine): void {
    const first = ll.tokens[0]!
    let owner: string
    if (ll.blankOwner) {
      if (this.previousOwner === undefined) {
        throw new ZoneFileError('no previous owner name', first)
      }
      owner = this.previousOwner
    } else {
      owner = this.name(first)
      this.previousOwner = owner
    }
    const fields = parseFields(ll.tokens, ll.blankOwner ? 0 : 1)
    const ttl = this.resolveTtl(fields, first)
    this.push(owner, ttl, fields.type, joinRdata(fields.rdata, fields.type), ll.comment, first)
  }

  private directive(ll: LogicalLine): void {
    const [head, ...args] = ll.tokens as [Token, ...Token[]]
    switch (head.text.toUpperCase()) {
      case '$ORIGIN':
        this.origin = this.name(this.single(head, args, 'a name'))
        return
      case '$TTL': {
        const value = this.single(head, args, 'a value')
        const ttl = parseTtl(value.text)
        if (ttl === undefined || value.quoted) {
          throw new ZoneFileError(`bad TTL "${value.text}"`, value)
        }
        this.zoneTtl = ttl
        return
      }
      case '$GENERATE':
        this.generate(ll)
        return
      case '$INCLUDE':
        throw new ZoneFileError('$INCLUDE directive not allowed', head)
      default:
        throw new ZoneFileError(`unknown directive ${head.text}`, head)
    }
  }

  /** `$GENERATE range lhs [ttl] [class] type rhs…` */
  private generate(ll: LogicalLine): void {
    const [head, rangeToken, lhs] = ll.tokens
    if (!rangeToken || !lhs) {
      throw new ZoneFileError('$GENERATE needs a range, owner, type and rdata', after(head!))
    }
    const range = parseRange(rangeToken)
    const fields = parseFields(ll.tokens, 3)
    const ttl = this.resolveTtl(fields, head!)
    if (this.entries.length + range.count > this.max) this.tooMany(head!)
    const owner = compileTemplate(lhs, range)
    const rdata = fields.rdata.map((t) => compileTemplate(t, range))
    const seps = rdataSeparators(fields.rdata, fields.type)
    for (let value = range.start; value <= range.stop; value += range.step) {
      const name = this.name({ ...lhs, text: expand(owner, value) })
      let text = expand(rdata[0]!, value)
      for (let k = 1; k < rdata.length; k++) text += seps[k]! + expand(rdata[k]!, value)
      this.push(name, ttl, fields.type, text, ll.comment, head!)
    }
  }

  private single(head: Token, args: Token[], what: string): Token {
    const [value, extra] = args
    if (!value) throw new ZoneFileError(`${head.text} needs ${what}`, after(head))
    if (extra) throw new ZoneFileError(`unexpected "${extra.text}"`, extra)
    return value
  }

  private name(token: Token): string {
    if (token.quoted) throw new ZoneFileError('name cannot be a quoted string', token)
    const name = resolveName(token.text, this.origin)
    if (name === undefined) throw new ZoneFileError(`bad name "${token.text}"`, token)
    return name
  }

  private resolveTtl(fields: RecordFields, at: Position): number {
    if (fields.ttl !== undefined) {
      this.lastTtl = fields.ttl
      return fields.ttl
    }
    if (this.zoneTtl !== undefined) return this.zoneTtl
    if (this.lastTtl !== undefined) return this.lastTtl
    const minimum = fields.type === 'SOA' ? fields.rdata[6] : undefined
    const soaTtl = minimum && !minimum.quoted ? parseTtl(minimum.text) : undefined
    if (soaTtl !== undefined) {
      this.zoneTtl = soaTtl // BIND: the SOA minimum then acts as $TTL
      return soaTtl
    }
    if (this.fallbackTtl !== undefined) return this.fallbackTtl
    throw new ZoneFileError('no TTL specified', at)
  }

  private push(
    name: string,
    ttl: number,
    type: string,
    rdata: string,
    comment: string | undefined,
    at: Token
  ): void {
    if (this.entries.length >= this.max) this.tooMany(at)
    const entry: ZoneEntry = {
      name: displayName(name),
      ttl,
      class: 'IN',
      type,
      rdata,
      origin: displayName(this.origin),
      line: at.line,
    }
    if (comment !== undefined) entry.comment = comment
    this.entries.push(entry)
  }

  private tooMany(at: Position): never {
    throw new ZoneFileError(`too many records (limit ${this.max})`, at)
  }
}

/** Parses a BIND/RFC 1035 master file; throws ZoneFileError (line and column) on bad syntax. */
export function parseZoneFile(text: string, opts: ParseOptions): ZoneEntry[] {
  const parser = new Parser(opts)
  const limits = {
    maxChars: opts.maxLineChars ?? DEFAULT_LINE_LIMITS.maxChars,
    maxTokens: opts.maxLineTokens ?? DEFAULT_LINE_LIMITS.maxTokens,
  }
  for (const ll of logicalLines(text, limits)) parser.line(ll)
  return parser.entries
}
