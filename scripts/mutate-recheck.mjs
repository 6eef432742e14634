#!/usr/bin/env node
// `npm run mutate:recheck -- <module>…`: re-run each mutant Stryker reported Survived, in a fresh
// vitest process on a scratch copy of the project, against the test files Stryker says cover it.
// Why: the vitest runner reports some mutants Survived that a fresh process kills: mutants of
// module-level code (tables, regexes, constants) are activated after the module was loaded and so
// never run (stryker-js #6144, #6209), and `ignoreStatic` does not catch them all. A mutant that
// fails a test here was killed; one that passes every test still survived. Writes
// reports/mutation/<module>.recheck.json ({ killed: [mutant ids] }); scripts/mutate.mjs shows the
// score with these kills next to Stryker's own.
import { spawn } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { applyMutant } from './mutant-apply.mjs';
import { PART_TESTS } from './mutate-select.mjs';
import { TRUST_RECHECK, TRUST_TESTS } from './mutate-trust.mjs';

// Test files after `--` run for every mutant too (tests written after the Stryker run).
const dash = process.argv.indexOf('--');
const modules = process.argv.slice(2, dash < 0 ? undefined : dash);
const extra = dash < 0 ? [] : process.argv.slice(dash + 1);
if (!modules.length) {
  process.stderr.write(
    'usage: npm run mutate:recheck -- <module>… [-- test files…] (modules measured by npm run mutate)\n',
  );
  process.exit(2);
}
const root = process.cwd();
const out = join('reports', 'mutation');
const skip = new Set(['node_modules', '.git', 'reports', '.stryker-tmp', '.toolbox', 'coverage']);
const scratch = mkdtempSync(join(tmpdir(), 'toolbox-recheck-'));
cpSync(root, scratch, { recursive: true, filter: (src) => !skip.has(relative(root, src).split('/')[0]) });
symlinkSync(join(root, 'node_modules'), join(scratch, 'node_modules'), 'dir');
// vitest runs asynchronously so that Ctrl+C reaches this handler (vitest itself exits 0 on SIGINT, which
// would read as a surviving mutant): stop the run, remove the copy, write nothing.
let child;
for (const sig of ['SIGINT', 'SIGTERM'])
  process.on(sig, () => {
    child?.kill('SIGKILL');
    rmSync(scratch, { recursive: true, force: true });
    process.exit(130);
  });

/** Run vitest on `tests` in the scratch copy. */
const vitest = (tests) =>
  new Promise((resolve, reject) => {
    child = spawn(
      'nice',
      [
        '-n',
        '10',
        process.execPath,
        'node_modules/vitest/vitest.mjs',
        'run',
        '--config',
        'vitest.mutate.config.ts',
      ].concat(['--bail', '1', '--reporter', 'dot', ...tests]),
      // The config's include list is exactly these files (a file outside its default list would not run).
      { cwd: scratch, stdio: 'ignore', timeout: 120_000, env: { ...process.env, MUTATE_TESTS: tests.join(',') } },
    );
    child.on('exit', (status) => resolve({ status }));
    child.on('error', reject);
  });
const passes = new Map();

let failed = false;
try {
  for (const m of modules) {
    const file = join(out, `${m}.json`);
    if (!existsSync(file)) {
      process.stderr.write(`error: no report for '${m}' (run npm run mutate -- ${m} first)\n`);
      failed = true;
      continue;
    }
    const report = JSON.parse(readFileSync(file, 'utf8'));
    const testFile = new Map();
    for (const [f, t] of Object.entries(report.testFiles ?? {})) for (const test of t.tests) testFile.set(test.id, f);
    const killed = [];
    for (const [path, f] of Object.entries(report.files)) {
      const target = join(scratch, path);
      if (readFileSync(target, 'utf8') !== f.source) {
        process.stderr.write(`skipped ${path}: changed since the Stryker run (run npm run mutate again)\n`);
        continue;
      }
      for (const mutant of f.mutants.filter((x) => x.status === 'Survived')) {
        // The test files Stryker says cover the mutant; when the part names its own tests, those of them
        // that cover it, and those Stryker did not know (written after its run).
        const own = (PART_TESTS[m] ?? TRUST_TESTS[m])?.split(',');
        const covering = (mutant.coveredBy ?? []).map((id) => testFile.get(id)).filter(Boolean);
        const known = new Set(Object.keys(report.testFiles ?? {}));
        // A trust part's own tests are fast: all of them run (Stryker's per-test coverage misses some
        // tests that do reach a mutant, e.g. grants.test.ts for policy/grants.ts).
        const chosen = own
          ? m in TRUST_TESTS
            ? own
            : own.filter((t) => covering.includes(t) || !known.has(t))
          : covering;
        // and the file's own test file (src/a/b.ts → test/a/b.test.ts): coverage of module-level code is not per test
        const mirror = path.replace(/^src\//, 'test/').replace(/\.ts$/, '.test.ts');
        // A trust part's hostile end-to-end tests (scripts/mutate-trust.mjs) run for each of its survivors.
        // (MUTATE_HOSTILE=0 leaves them out: a quick pass with the fast tests alone.)
        const hostile = process.env.MUTATE_HOSTILE === '0' ? [] : (TRUST_RECHECK[m]?.split(',') ?? []);
        const tests = [
          ...new Set([...chosen, ...(existsSync(join(scratch, mirror)) ? [mirror] : []), ...hostile, ...extra]),
        ];
        if (!tests.length) continue;
        // Control: the same tests must pass on the unmutated code here, or a failure says nothing.
        const key = tests.join(' ');
        if (!passes.has(key)) passes.set(key, (await vitest(tests)).status === 0);
        if (!passes.get(key)) {
          process.stderr.write(`error: ${key} fail without a mutant in the scratch copy: ${path} not re-checked\n`);
          failed = true;
          break;
        }
        writeFileSync(target, applyMutant(f.source, mutant));
        const r = await vitest(tests);
        writeFileSync(target, f.source);
        const dead = r.status !== 0;
        if (dead) killed.push(mutant.id);
        const where = `${path}:${mutant.location.start.line}:${mutant.location.start.column}`;
        process.stdout.write(`${dead ? 'killed  ' : 'survived'} ${where} ${mutant.mutatorName}\n`);
      }
      writeFileSync(target, f.source);
    }
    if (failed) continue; // no score from a partial re-check
    writeFileSync(join(out, `${m}.recheck.json`), JSON.stringify({ killed }, null, 1));
    process.stdout.write(`${m}: ${killed.length} of Stryker's survivors killed in a fresh process\n`);
  }
} finally {
  rmSync(scratch, { recursive: true, force: true });
}
process.exitCode = failed ? 1 : 0;
