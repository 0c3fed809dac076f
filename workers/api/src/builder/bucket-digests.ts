/** @module The convergence check's per-bucket digest of lines, independent of their order. */

/** Order-independent digest of a bucket's lines: count and two 32-bit sums of line hashes. */
export class BucketDigests {
  readonly count: Uint32Array
  readonly sumA: Uint32Array
  readonly sumB: Uint32Array
  constructor(buckets: number) {
    this.count = new Uint32Array(buckets)
    this.sumA = new Uint32Array(buckets)
    this.sumB = new Uint32Array(buckets)
  }

  add(bucket: number, line: string): void {
    let a = 0x811c9dc5
    let b = 0x9747b28c
    for (let i = 0; i < line.length; i++) {
      const c = line.charCodeAt(i)
      a = Math.imul(a ^ c, 0x01000193)
      b = Math.imul(b ^ c, 0x5bd1e995)
      b ^= b >>> 15
    }
    this.count[bucket]! += 1
    this.sumA[bucket] = (this.sumA[bucket]! + (a >>> 0)) >>> 0
    this.sumB[bucket] = (this.sumB[bucket]! + (b >>> 0)) >>> 0
  }

  same(other: BucketDigests, bucket: number): boolean {
    return (
      this.count[bucket] === other.count[bucket] &&
      this.sumA[bucket] === other.sumA[bucket] &&
      this.sumB[bucket] === other.sumB[bucket]
    )
  }
}
