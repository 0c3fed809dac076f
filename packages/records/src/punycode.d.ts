/** @module punycode.d: types for the ESM build of the `punycode` package (no @types shipped). */
declare module 'punycode/punycode.es6.js' {
  export function toASCII(domain: string): string
  export function toUnicode(domain: string): string
}
