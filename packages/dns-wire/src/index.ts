/**
 * @module The project's one DNS wire codec. Server side (the DoH worker): validating query
 * decoding, response encoding, JSON. Client side (SDK, tests, benchmarks): query encoding and
 * whole-message decoding.
 */
export * from './types.ts'
export { DnsFormatError, RdataError, type PartialHeader } from './errors.ts'
export { frameTcp, MAX_TCP_MESSAGE, TcpMessageSplitter } from './tcp-framing.ts'
export {
  decodeQuery,
  peekHeader,
  HEADER_BYTES,
  MAX_MESSAGE,
  type Query,
  type QueryQuestion,
  type Edns,
} from './query.ts'
export {
  encodeResponse,
  replyTo,
  formErrReply,
  OUR_UDP_PAYLOAD,
  type ResponseInit,
  type ResponseRR,
  type ResolutionLike,
} from './response.ts'
export { encodeRdata, SUPPORTED_TYPES } from './rdata/index.ts'
export { fromGenericText } from './rdata/decode.ts'
export { dsDigestInput } from './rdata/ds-digest-input.ts'
export { toJsonResponse, type JsonResponse, type JsonRR } from './json.ts'
export { OPT_RR_LENGTH, writeOpt, type OptFields } from './opt.ts'
export { encodeQuery, type QueryEdns, type QueryInit } from './query-encode.ts'
export {
  decodeMessage,
  rrLine,
  type Message,
  type MessageOpt,
  type MessageQuestion,
  type MessageRR,
} from './message.ts'
// Low-level building blocks for code that assembles its own messages (zone transfers, TSIG).
export { ByteWriter } from './writer.ts'
export { concatBytes } from './bytes.ts'
export { Reader } from './reader.ts'
export {
  Compressor,
  NameError,
  nameText,
  parseName,
  writeName,
  writeLabelsBelow,
  writeNameBelow,
  writeNameText,
  type Labels,
} from './names.ts'
export { writeRdata } from './rdata/index.ts'
export { ipv4, ipv6, isIPv4, TextError } from './rdata/text.ts'
export { LOC_LIMITS, splitLocText, type LocAngleText, type LocText } from './rdata/loc-text.ts'
export { locRepresentableMeters } from './rdata/loc.ts'
