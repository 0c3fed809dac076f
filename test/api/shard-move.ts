/**
 * Test helper: starts an account move through the API and drives its ShardMover's alarms until
 * the move is done (alarms also fire on their own; running them here keeps tests quick).
 */
import { runDurableObjectAlarm } from 'cloudflare:test'
import { env } from 'cloudflare:workers'
import { api, type ApiResponse } from './helpers.ts'

const pause = (ms: number) => new Promise((r) => setTimeout(r, ms))

/** Drives the account's move until its status is done; returns that status. */
export async function awaitMove(accountId: string, timeoutMs = 50_000): Promise<any> {
  const stub = env.SHARD_MOVER.get(env.SHARD_MOVER.idFromName(accountId))
  const until = Date.now() + timeoutMs
  while (Date.now() < until) {
    const move = (await api('GET', `/accounts/${accountId}/shard`)).body.result.move
    if (move?.status === 'done') return move
    if (!(await runDurableObjectAlarm(stub))) await pause(2)
  }
  throw new Error(`the move of ${accountId} did not finish in ${timeoutMs} ms`)
}

/** PUT /accounts/{id}/shard, then waits for the move to finish; returns both answers. */
export async function moveAndWait(
  accountId: string,
  shard: number
): Promise<{ started: ApiResponse; done: any }> {
  const started = await api('PUT', `/accounts/${accountId}/shard`, { shard })
  if (started.status !== 202) return { started, done: null }
  return { started, done: await awaitMove(accountId) }
}
