import { defineConfig } from 'vitest/config';

// The in-process unit tests of the pure core modules, for `npm run mutate` (Stryker). Tests that spawn the
// built binary or a sandbox cannot see a mutant (they run dist/, not the mutated source), so they stay out.
const config = defineConfig({
  test: {
    include: [
      'test/select/**/*.test.ts',
      'test/lint/**/*.test.ts',
      // validate in process (cli() runs src/, not dist/): lint/validate.ts and filters.ts
      'test/commands/validate.test.ts',
      'test/commands/validate-ci.test.ts',
      'test/contract/**/*.test.ts',
      'test/runtime/args*.test.ts',
      'test/runtime/breaker.test.ts',
      'test/runtime/validate.test.ts',
      'test/errors.test.ts',
      'test/cli/in-process.test.ts',
      // In process through run() (test/helpers.ts cli): eval/compare/gate, select --format, sessions, list's tokens.
      'test/commands/eval.test.ts',
      'test/commands/select.test.ts',
      'test/commands/list.test.ts',
      'test/policy/session.test.ts',
    ],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
  },
});
// A part may name its own tests (scripts/mutate-select.mjs PART_TESTS, passed on by scripts/mutate.mjs).
if (process.env.MUTATE_TESTS) config.test!.include = process.env.MUTATE_TESTS.split(',');
export default config;
