#!/usr/bin/env node
// `npm run mutate [module...]`: Stryker over the pure core modules, one module at a time (its own
// incremental file, so a re-run only tests what changed), concurrency 1 under `nice`, then one line
// per module: killed / survived / no coverage / timeout and the mutation score. `npm run mutate -- args`
// measures one module; the default is every module (select as a whole).
// Not part of CI: it takes minutes per module on a 2-core machine.
import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { basename, join } from 'node:path';
import { FILE_TESTS, NOT_MUTATED, PART_TESTS, SELECT_PARTS } from './mutate-select.mjs';
import { TRUST_MUTATORS, TRUST_PARTS, TRUST_TESTS } from './mutate-trust.mjs';

export const MODULES = {
  select: ['src/select/**/*.ts', ...Object.keys(NOT_MUTATED).map((f) => `!${f}`)].join(','),
  // The same module in parts (scripts/mutate-select.mjs), for a machine where the whole is too slow in
  // one go (--mutate takes a comma-separated list; braces are not expanded).
  ...SELECT_PARTS,
  lint: 'src/lint/**/*.ts',
  // lint/ in three parts (each one Stryker run): the rules, what they share, and validate's pipeline.
  'lint-rules': 'src/lint/rules/**/*.ts',
  'lint-core': ['engine', 'text', 'poison', 'params', 'structural'].map((f) => `src/lint/${f}.ts`).join(','),
  'lint-validate': ['validate', 'filters', 'lock-drift'].map((f) => `src/lint/${f}.ts`).join(','),
  contract: 'src/contract/**/*.ts',
  // contract/ in two parts: the YAML readers (fast-yaml's equivalence test is slow), and the rest.
  'contract-yaml': ['fast-yaml', 'yaml-source'].map((f) => `src/contract/${f}.ts`).join(','),
  'contract-other': ['parse', 'ajv', 'regex', 'schema', 'mcp-tool', 'provider-names', 'diagnostic', 'types']
    .map((f) => `src/contract/${f}.ts`)
    .join(','),
  // The trust boundary's checks (scripts/mutate-trust.mjs), with the condition mutators only.
  ...TRUST_PARTS,
  args: 'src/runtime/args.ts',
  breaker: 'src/runtime/breaker.ts',
  errors: 'src/errors.ts',
};

/** The lint and contract parts' own tests (as PART_TESTS for select): a lint mutant runs only lint tests. */
const OWN_TESTS = {
  'lint-core': 'test/lint/**/*.test.ts',
  'lint-rules': 'test/lint/**/*.test.ts',
  'lint-validate': 'test/lint/**/*.test.ts,test/commands/validate.test.ts,test/commands/validate-ci.test.ts',
  // Not contract-validator.test.ts: it compares the generated validator with dist/, and Stryker's copy differs.
  'contract-yaml': 'test/contract/fast-yaml.test.ts,test/contract/yaml-source.test.ts,test/contract/parse*.test.ts',
  'contract-other':
    'test/contract/parse*.test.ts,test/contract/ajv.test.ts,test/contract/regex.test.ts,test/contract/mcp-tool.test.ts,test/lint/**/*.test.ts',
};

// A source file (optionally with Stryker's line range, `src/select/query.ts:40-80`) is a module of its own,
// named after the file, for checking a fix without re-running a whole part.
// `--table`: only print the table of what was measured before.
const tableOnly = process.argv.includes('--table');
const wanted = process.argv
  .slice(2)
  .filter((m) => m !== '--table')
  .map((m) => {
    if (m in MODULES || !existsSync(m.split(':')[0])) return m;
    const name = basename(m.split(':')[0], '.ts');
    MODULES[name] = m;
    return name;
  });
for (const m of wanted) {
  if (!(m in MODULES)) {
    process.stderr.write(`error: unknown module '${m}'. Known: ${Object.keys(MODULES).join(', ')}\n`);
    process.exit(2);
  }
}
const modules = tableOnly ? [] : wanted.length ? wanted : Object.keys(MODULES).filter((m) => !m.includes('-'));
const out = join('reports', 'mutation');
mkdirSync(out, { recursive: true });

/** Score as Stryker defines it: detected / (detected + undetected); errors and ignored mutants do not count. */
export function summarise(report) {
  const n = { Killed: 0, Timeout: 0, Survived: 0, NoCoverage: 0, other: 0 };
  for (const file of Object.values(report.files)) for (const m of file.mutants) n[m.status in n ? m.status : 'other']++;
  const detected = n.Killed + n.Timeout;
  const valid = detected + n.Survived + n.NoCoverage;
  return { ...n, score: valid ? (100 * detected) / valid : NaN };
}

/** The part a single file belongs to (it runs that part's tests): a select part, or a lint or contract part. */
const partOf = (spec) =>
  [...Object.keys(SELECT_PARTS), ...Object.keys(OWN_TESTS), ...Object.keys(TRUST_PARTS)].find((p) =>
    MODULES[p].split(',').includes(spec.split(':')[0]),
  );

const rows = [];
let failed = false;
for (const m of modules) {
  process.stderr.write(`\n== mutate ${m} (${MODULES[m]})\n`);
  const r = spawnSync(
    'nice',
    [
      '-n',
      '10',
      process.execPath,
      'node_modules/@stryker-mutator/core/bin/stryker.js',
      'run',
      '--mutate',
      MODULES[m],
      '--incrementalFile',
      join(out, `${m}.incremental.json`),
    ],
    {
      stdio: 'inherit',
      env: {
        ...process.env,
        MUTATE_TESTS:
          PART_TESTS[m] ??
          OWN_TESTS[m] ??
          TRUST_TESTS[m] ??
          FILE_TESTS[MODULES[m].split(':')[0]] ??
          PART_TESTS[partOf(MODULES[m])] ??
          OWN_TESTS[partOf(MODULES[m])] ??
          TRUST_TESTS[partOf(MODULES[m])] ??
          '',
        // A trust part (or one of its files) runs with the condition mutators only.
        ...(m in TRUST_PARTS || partOf(MODULES[m]) in TRUST_PARTS ? { MUTATE_MUTATORS: TRUST_MUTATORS.join(',') } : {}),
      },
    },
  );
  const report = join(out, 'mutation.json');
  if (r.status !== 0 || !existsSync(report)) {
    failed = true;
    rows.push({ m, error: `stryker exited ${r.status ?? r.signal}` });
    continue;
  }
  copyFileSync(report, join(out, `${m}.json`));
  rows.push({ m });
}

// Every module measured so far (this run or an earlier one), so one table shows the whole picture.
process.stdout.write('\nmodule           killed  timeout  survived  no-cov   score  rechecked\n');
// (and single files measured on their own, `npm run mutate -- src/select/query.ts`)
const measured = readdirSync(out)
  .filter((f) => /^[\w-]+\.json$/.test(f) && f !== 'mutation.json')
  .map((f) => f.slice(0, -'.json'.length));
for (const m of [...new Set([...Object.keys(MODULES), ...measured])]) {
  const failedNow = rows.find((r) => r.m === m && r.error);
  const file = join(out, `${m}.json`);
  if (failedNow) process.stdout.write(`${m.padEnd(16)} ${failedNow.error}\n`);
  if (failedNow || !existsSync(file)) continue;
  const r = summarise(JSON.parse(readFileSync(file, 'utf8')));
  const when = modules.includes(m) ? '' : '  (earlier run)';
  // With `npm run mutate:recheck -- <module>`: the score once survivors killed in a fresh process count as killed.
  const recheck = join(out, `${m}.recheck.json`);
  const fresh =
    existsSync(recheck) && statSync(recheck).mtimeMs > statSync(file).mtimeMs
      ? JSON.parse(readFileSync(recheck, 'utf8')).killed.length
      : undefined;
  const valid = r.Killed + r.Timeout + r.Survived + r.NoCoverage;
  const rechecked = fresh === undefined ? '' : `${((100 * (r.Killed + r.Timeout + fresh)) / valid).toFixed(1)}%`;
  process.stdout.write(
    `${m.padEnd(16)} ${String(r.Killed).padStart(6)} ${String(r.Timeout).padStart(8)} ${String(r.Survived).padStart(9)} ${String(r.NoCoverage).padStart(7)} ${r.score.toFixed(1).padStart(6)}% ${rechecked.padStart(9)}${when}\n`,
  );
}
process.exitCode = failed ? 1 : 0;
