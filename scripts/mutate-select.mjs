// The parts of src/select that `npm run mutate` measures, each small enough to run in one go on a
// 2-core machine. Every file of src/select belongs to exactly one part, or is listed in NOT_MUTATED
// with the reason (test/mutate-select.test.ts checks both).
const files = (...names) => names.map((f) => `src/select/${f}.ts`).join(',');

export const SELECT_PARTS = {
  // The ranking model: analysis, fields, query terms, scores, the cut-off.
  'select-rank': files(
    'model',
    'lex-build',
    'tokenize',
    'task-words',
    'fields',
    'query',
    'shape',
    'small-talk',
    'why-empty',
    'destructive',
    'typos',
    'typo-params',
  ),
  // Text analysis: stemming, stop words, the glossary and translation, token counts.
  'select-text': files('stem', 'stopwords', 'verbs', 'lexicon', 'han-fold', 'translate', 'tokens'),
  // Evaluation: metrics, the baseline replica, eval/compare/gate, routing conflicts.
  'select-eval': files('metrics', 'baseline', 'evaluate', 'compare', 'gate', 'routing', 'leave-out'),
  // Output and sessions: definitions, deferral, session context, dense retrieval.
  'select-session': files('definitions', 'deferral', 'context', 'dense'),
  // The on-disk index: store, its format, the in-memory index, incremental updates, the journal.
  'select-store': files(
    'store',
    'build',
    'full-build',
    'store-format',
    'index',
    'incremental',
    'journal',
    'registry-cache',
  ),
};

// The tests each part runs under Stryker (MUTATE_TESTS, read by vitest.mutate.config.ts). Stem, tokenizer,
// model and store code runs in nearly every selection test, so Stryker would run them all for each of
// those mutants (an hour per part here); these are the tests that pin the part. A mutant some other
// test would kill can only be reported Survived: the score is a floor.
const tests = (...names) =>
  names.map((f) => (f.includes('/') ? `test/${f}.test.ts` : `test/select/${f}.test.ts`)).join(',');
export const PART_TESTS = {
  'select-rank': tests(
    'model',
    'analysis',
    'lex-build',
    'model-parts',
    'tokenize',
    'fields',
    'query',
    'shape',
    'translate',
    'senses',
    'small-talk',
    'never-silent',
    'destructive',
    'typos',
    'incremental',
    'select',
    'shipped',
  ),
  'select-text': tests(
    'stem',
    'tokenize',
    'han-fold',
    'small-talk',
    'translate',
    'senses',
    'query',
    'tokens',
    'model',
    'commands/list',
  ),
  'select-eval': tests('metrics', 'compare', 'gate', 'gate-against', 'baseline', 'routing', 'commands/eval'),
  'select-session': tests('context', 'dense', 'dense-rerank', 'deferral', 'commands/select', 'policy/session'),
  'select-store': tests(
    'select',
    'index',
    'build',
    'registry-cache',
    'build-parts',
    'store',
    'store-large',
    'store-journal',
    'store-check',
    'journal',
    'journal-parts',
    'shape',
    'store-format',
    'incremental',
    'dense',
    'deferral',
    'routing',
    'commands/select',
    'policy/session',
  ),
};

// A single file measured on its own (`npm run mutate -- src/select/store.ts`) runs these instead of its part's
// tests. The large-registry tests (journal, store-large) build 2,100 contracts per test: Stryker re-runs that
// for each mutant they cover (about a minute each here), so they are left to the recheck
// (`npm run mutate:recheck -- store -- test/select/store-large.test.ts test/select/journal.test.ts …`).
export const FILE_TESTS = {
  // store.ts: its own tests, with the large-registry paths reached through `largeAbove` (store-journal). The
  // selection tests (select, index, commands/select) open the index in nearly every test: Stryker would run
  // them all for each mutant (~40 s each here), so they are left to the recheck, with store-large and journal.
  'src/select/store.ts': tests('store', 'store-journal', 'store-check', 'build-parts'),
  'src/select/journal.ts': tests('journal-parts', 'store'),
  'src/select/index.ts': tests('index', 'select', 'shape', 'deferral', 'dense', 'commands/select', 'policy/session'),
  // The streamed cold build: its equality with the old path (build, lex-build), and what store.ts asks of it.
  'src/select/build.ts': tests('build', 'build-parts', 'store', 'store-journal'),
  'src/select/full-build.ts': tests('build', 'build-parts', 'store', 'store-journal'),
  'src/select/lex-build.ts': tests('lex-build', 'model', 'model-parts', 'incremental'),
};

// Test files of test/select that no part runs, each with its reason (test/select/mutate-parts.test.ts checks
// that every other test file there is named by some part).
export const NOT_RUN = {
  'test/select/mutate-parts.test.ts': 'checks the mutation scripts themselves: no mutant of src/select can change it',
  'test/select/registry-cache-e2e.test.ts':
    'runs the built binary and its verifier from dist/ (mutants of src/ never run)',
};

export const NOT_MUTATED = {
  // A process entry point: journal.ts spawns the built dist/select/verify-main.js in a child process,
  // so a mutant of the source is never what runs; its one call (openIndex) is measured in select-store.
  'src/select/verify-main.ts': 'process entry point, run as a child from dist/ (mutants of src/ never run)',
};
