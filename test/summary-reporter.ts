import type { Reporter, TestModule } from 'vitest/node';

/**
 * Prints one plain closing line, `tests: N passed, N failed, N skipped`, after vitest's own
 * summary, so that tools reading a run's last lines (CI) see the counts in a fixed format; before
 * it, every skipped test by name (with its note, when the test gave one), so no test vanishes unseen.
 */
export default class SummaryReporter implements Reporter {
  onTestRunEnd(testModules: ReadonlyArray<TestModule>, unhandledErrors: ReadonlyArray<unknown>): void {
    let passed = 0;
    let failed = 0;
    let skipped = 0;
    const skips: string[] = [];
    for (const m of testModules) {
      let failedHere = 0;
      for (const t of m.children.allTests()) {
        const s = t.result().state;
        if (s === 'passed') passed++;
        else if (s === 'failed') failedHere++;
        else {
          skipped++;
          const note = t.result().note;
          skips.push(`${m.moduleId.replace(process.cwd() + '/', '')} > ${t.fullName}${note ? ` (${note})` : ''}`);
        }
      }
      // A module that failed to load, or whose beforeAll/afterAll threw (its tests then show as
      // skipped), is a failure even when none of its tests failed.
      failed += failedHere || (m.state() === 'failed' ? 1 : 0);
    }
    failed += unhandledErrors.length;
    if (skips.length) process.stdout.write(`\nskipped:\n${skips.map((s) => `  ${s}`).join('\n')}\n`);
    process.stdout.write(`\ntests: ${passed} passed, ${failed} failed, ${skipped} skipped\n`);
  }
}
