import type { Reporter, TestModule } from 'vitest/node';

/**
 * Prints one Jest-style `Tests:` line at the end of the run, which .ci/run sums over every package
 * (Vitest's own summary is formatted differently).
 */
export default class SummaryReporter implements Reporter {
  onTestRunEnd(modules: readonly TestModule[]): void {
    let passed = 0;
    let failed = 0;
    let skipped = 0;
    for (const module of modules) {
      for (const test of module.children.allTests()) {
        const state = test.result().state;
        if (state === 'passed') passed++;
        else if (state === 'failed') failed++;
        else skipped++;
      }
    }
    const total = passed + failed + skipped;
    process.stdout.write(
      `Tests:       ${failed} failed, ${skipped} skipped, ${passed} passed, ${total} total\n`,
    );
  }
}
