/** @module tr46.d: types for the `tr46` package (UTS 46 processing; no types shipped). */
declare module 'tr46' {
  export interface Tr46Options {
    checkHyphens?: boolean
    checkBidi?: boolean
    checkJoiners?: boolean
    useSTD3ASCIIRules?: boolean
    transitionalProcessing?: boolean
    verifyDNSLength?: boolean
    ignoreInvalidPunycode?: boolean
  }
  /** The ASCII form, or null when UTS 46 processing reports an error. */
  export function toASCII(domainName: string, options?: Tr46Options): string | null
  export function toUnicode(
    domainName: string,
    options?: Tr46Options
  ): { domain: string; error: boolean }
  const tr46: { toASCII: typeof toASCII; toUnicode: typeof toUnicode }
  export default tr46
}
