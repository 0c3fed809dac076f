/**
 * @module Zone transfers without I/O: TSIG (RFC 8945), AXFR answers (RFC 5936) and IXFR answers
 * from a change log (RFC 1995), as DNS messages ready for a TCP stream; and the secondary's side:
 * requests, reading a transfer answer, and the refresh/retry/expire schedule.
 */
export {
  DEFAULT_FUDGE,
  MAX_UNSIGNED_RUN,
  TSIG_ERRORS,
  TsigError,
  findKey,
  signErrorResponse,
  signMessage,
  tsigSize,
  verifyRequest,
  type RequestVerdict,
  type SignOptions,
  type Signed,
  type TsigErrorName,
} from './tsig.ts'
export { TsigStreamSigner, TsigStreamVerifier } from './tsig-stream.ts'
export { parseTsigKey, type TsigAlgorithm, type TsigKey } from './tsig-key.ts'
export { splitTsig, type SplitMessage, type TsigRecord } from './tsig-record.ts'
export {
  RecordBelowZone,
  TransferPacker,
  packTransfer,
  type PackOptions,
  type TransferQuestion,
  type TransferRecord,
} from './pack.ts'
export { axfrRecords } from './axfr.ts'
export { planIxfr, type IxfrInput, type IxfrPlan, type IxfrStep } from './ixfr.ts'
export { serialAfter, soaSerial, withSerial } from './soa.ts'
export {
  IxfrError,
  TransferError,
  readTransfer,
  soaOfAnswer,
  transferRequest,
  type ReadOptions,
  type RecordSink,
  type SignedRequest,
  type TransferOutcome,
  type TransferRequest,
} from './client.ts'
export {
  boundedTimers,
  DEFAULT_TIMER_BOUNDS,
  FIRST_TRANSFER_RETRY,
  schedule,
  soaTimers,
  type Schedule,
  type ScheduleInput,
  type SoaTimers,
  type TimerBounds,
} from './schedule.ts'
export {
  OPCODE_NOTIFY,
  answerNotify,
  isNotify,
  notifyMessage,
  parseNotifyReply,
  type NotifyOutcome,
  type NotifyPolicy,
  type NotifyReply,
} from './notify.ts'
export {
  answerSignedQuery,
  answerTransfer,
  isTransferRequest,
  requestQuestion,
  transferMessages,
  type TransferOptions,
  type TransferZone,
} from './serve.ts'
export {
  PackedAnswerCache,
  type PackedAnswers,
  type PackedKeeper,
  type PackedLease,
} from './packed-answers.ts'
export { CATALOG_TTL, catalogRecords, catalogSoa, type CatalogMember } from './catalog.ts'
