/**
 * Fails a test after which the strict bindings recorded a breach of a production limit, also when
 * the code under test caught the error (a builder retry loop, a swallowed notification).
 */
import { afterEach } from 'vitest'
import { takeBreaches } from '@edgedns/strict-bindings'

afterEach(() => {
  const breaches = takeBreaches()
  if (breaches.length > 0) {
    throw new Error(
      `production limits breached during this test:\n${[...new Set(breaches.map((b) => b.message))].join('\n')}`
    )
  }
})
