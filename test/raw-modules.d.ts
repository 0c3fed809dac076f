/** Text files imported whole by the tests (`import text from '…/README.md?raw'`, a Vite feature). */
declare module '*?raw' {
  const text: string
  export default text
}
