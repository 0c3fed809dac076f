/**
 * @module @edgedns/delegation: the name servers a zone is delegated to, as its parent zone's
 * authoritative servers say (choosing the parent, the RD=0 query, reading the referral). Pure: the caller brings the resolver and the TCP exchange.
 */
export { isAtOrBelow, isBelow, parentName } from './names.ts'
export { enclosingZone, nameServersOf, type ResolverAnswer, type ResolverRecord } from './parent.ts'
export { delegationQuery, readParentAnswer, type ParentAnswer } from './referral.ts'
export {
  DEFAULT_EXCHANGE_TIMEOUT_MS,
  DEFAULT_MAX_EXCHANGES,
  DelegationError,
  findDelegation,
  type Delegation,
  type DelegationIo,
  type DelegationLimits,
} from './find.ts'
