import type { ChildProcess } from 'node:child_process'

export function namedConf(config: {
  dir: string
  port: number
  options?: string[]
  keys?: Record<string, string>
  zones?: string
}): string

export function spawnNamed(dir: string, conf: string): { child: ChildProcess; log: () => string }
