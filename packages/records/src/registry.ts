/** @module registry: the single table of record-type specs, keyed by type. */
import { ERROR_CODES, RecordError } from './errors.ts'
import { isRecordType, type RecordType } from './record-type.ts'
import type { TypeSpec } from './spec.ts'
import { A, AAAA } from './types/address.ts'
import { CAA } from './types/caa.ts'
import { CERT, DNSKEY, DS, SMIMEA, SSHFP, TLSA } from './types/dnssec.ts'
import { CNAME, NS, PTR } from './types/hostname.ts'
import { LOC } from './types/loc.ts'
import { MX } from './types/mx.ts'
import { NAPTR } from './types/naptr.ts'
import { SRV } from './types/srv.ts'
import { HTTPS, SVCB } from './types/svcb.ts'
import { OPENPGPKEY, TXT } from './types/txt.ts'
import { URI } from './types/uri.ts'

/** Every record type's spec: IANA code, error code, data keys, zod schema, parsers, formatters. */
export const REGISTRY: Readonly<Record<RecordType, TypeSpec>> = Object.freeze({
  A,
  AAAA,
  CAA,
  CERT,
  CNAME,
  DNSKEY,
  DS,
  HTTPS,
  LOC,
  MX,
  NAPTR,
  NS,
  OPENPGPKEY,
  PTR,
  SMIMEA,
  SRV,
  SSHFP,
  SVCB,
  TLSA,
  TXT,
  URI,
})

/** Spec for `type`; throws RecordError 9020 for anything that is not one of the 21 types. */
export function getTypeSpec(type: string): TypeSpec {
  if (!isRecordType(type)) {
    throw new RecordError(ERROR_CODES.TYPE_INVALID, `Invalid DNS record type: ${String(type)}.`)
  }
  return REGISTRY[type]
}
