/**
 * @module The DNS tables this codec uses, from `@edgedns/dns-facts` (the one place they are
 * declared), re-exported so callers of the codec need one import.
 */
export {
  CLASSES,
  OPCODES,
  RCODES,
  TYPE_CODES,
  rcodeName,
  rcodeValue,
  typeFromName,
  typeName,
  type RcodeName,
  type TypeName,
} from '@edgedns/dns-facts'
