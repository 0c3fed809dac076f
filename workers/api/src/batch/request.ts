/**
 * @module The batch request body: deletes, patches, puts, posts.
 */
import { z } from 'zod'
import { recordFieldsSchema, recordWithIdSchema } from '../records/input.ts'

export const batchRequestSchema = z.object({
  deletes: z.array(z.object({ id: z.string() })).optional(),
  patches: z.array(recordWithIdSchema).optional(),
  puts: z.array(recordWithIdSchema).optional(),
  posts: z.array(recordFieldsSchema).optional(),
})
export type BatchRequest = z.infer<typeof batchRequestSchema>

export function countChanges(r: BatchRequest): number {
  return (
    (r.deletes?.length ?? 0) +
    (r.patches?.length ?? 0) +
    (r.puts?.length ?? 0) +
    (r.posts?.length ?? 0)
  )
}
