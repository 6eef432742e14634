// Mutation testing of the pure core modules. Run through `npm run mutate` (scripts/mutate.mjs), which
// runs one module at a time with its own incremental file; not part of CI (slow on 2 cores).
import process from 'node:process';

// Every mutator Stryker has; MUTATE_MUTATORS (set by scripts/mutate.mjs for the trust-* parts) keeps only
// the named ones.
const ALL_MUTATORS = [
  'ArithmeticOperator',
  'ArrayDeclaration',
  'ArrowFunction',
  'AssignmentOperator',
  'BlockStatement',
  'BooleanLiteral',
  'ConditionalExpression',
  'EqualityOperator',
  'LogicalOperator',
  'MethodExpression',
  'ObjectLiteral',
  'OptionalChaining',
  'Regex',
  'StringLiteral',
  'UnaryOperator',
  'UpdateOperator',
];
const only = process.env.MUTATE_MUTATORS?.split(',').filter(Boolean);

/** @type {import('@stryker-mutator/api/core').PartialStrykerOptions} */
export default {
  ...(only?.length ? { mutator: { excludedMutations: ALL_MUTATORS.filter((m) => !only.includes(m)) } } : {}),
  testRunner: 'vitest',
  plugins: ['@stryker-mutator/vitest-runner'],
  vitest: { configFile: 'vitest.mutate.config.ts', related: true },
  coverageAnalysis: 'perTest',
  // Static mutants (module-level tables and regexes) are reported Survived by the vitest runner even
  // when a test kills them by hand (activation after the module loaded: stryker-js #6144, #6209), and
  // incremental runs reuse that verdict (#6119). Ignore them rather than report false survivors;
  // the tests that pin those tables were checked by applying such mutants by hand.
  ignoreStatic: true,
  concurrency: 1,
  incremental: true,
  reporters: ['clear-text', 'json', 'progress-append-only'],
  clearTextReporter: { allowColor: false, logTests: false, reportScoreTable: true, reportMutants: false },
  tempDirName: '.stryker-tmp',
  // dist/ is copied: a few included tests also run the built binary (it cannot see a mutant, but must work);
  // docs/ too: a lint test checks the docs' rule tables against the rules.
  ignorePatterns: ['bench', 'reports', '.toolbox', 'coverage'],
  timeoutMS: 20_000,
  thresholds: { high: 90, low: 80, break: null },
};
