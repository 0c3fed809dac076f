/**
 * Vitest's sequencer, except that the files named in `longFirst` start before the others of their
 * group (`sequence.groupOrder`). A fresh clone has no recorded durations, so vitest would order by
 * file size and might start a long file last, leaving one worker busy while the other idles.
 */
import { BaseSequencer, type TestSpecification } from 'vitest/node'

export function longFirstSequencer(longFirst: readonly string[]) {
  const rank = (spec: TestSpecification): number => {
    const i = longFirst.findIndex((file) => spec.moduleId.endsWith(`/${file}`))
    return i === -1 ? longFirst.length : i
  }
  return class LongFirstSequencer extends BaseSequencer {
    override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
      const sorted = await super.sort(files)
      const group = (spec: TestSpecification) => spec.project.config.sequence.groupOrder
      // Array.prototype.sort is stable: files outside the list keep vitest's order.
      return sorted
        .map((spec, index) => ({ spec, index }))
        .sort(
          (a, b) =>
            group(a.spec) - group(b.spec) || rank(a.spec) - rank(b.spec) || a.index - b.index
        )
        .map(({ spec }) => spec)
    }
  }
}
