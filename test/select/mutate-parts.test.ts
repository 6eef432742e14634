// `npm run mutate` measures src/select in parts (scripts/mutate-select.mjs): a new file must land in
// one of them, or be listed as not mutated with its reason, rather than go unmeasured in silence. The
// same holds for test files: Stryker runs only the tests a part names (MUTATE_TESTS), so a new test file
// no part names would never kill a mutant there.
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO } from '../helpers.js';
import { FILE_TESTS, NOT_MUTATED, NOT_RUN, PART_TESTS, SELECT_PARTS } from '../../scripts/mutate-select.mjs';
import { applyMutant } from '../../scripts/mutant-apply.mjs';
import { TRUST_NOT_MUTATED, TRUST_PARTS, TRUST_RECHECK, TRUST_TESTS } from '../../scripts/mutate-trust.mjs';

describe('mutation parts of src/select', () => {
  it('hold every file of src/select exactly once, or name why it is not mutated', () => {
    const parts: Record<string, string> = SELECT_PARTS;
    const skipped: Record<string, string> = NOT_MUTATED;
    const listed = [...Object.values(parts).flatMap((p) => p.split(',')), ...Object.keys(skipped)];
    const files = readdirSync(join(REPO, 'src/select'))
      .filter((f) => f.endsWith('.ts'))
      .map((f) => `src/select/${f}`);
    expect([...listed].sort()).toEqual(files.sort());
    for (const reason of Object.values(skipped)) expect(reason.length).toBeGreaterThan(20);
  });

  it('run every test file of test/select in some part, or name why not', () => {
    const parts: Record<string, string> = PART_TESTS;
    const notRun: Record<string, string> = NOT_RUN;
    const run = new Set(Object.values(parts).flatMap((p) => p.split(',')));
    const files = readdirSync(join(REPO, 'test/select'))
      .filter((f) => f.endsWith('.test.ts'))
      .map((f) => `test/select/${f}`);
    expect(files.filter((f) => !run.has(f) && !(f in notRun))).toEqual([]);
    for (const reason of Object.values(notRun)) expect(reason.length).toBeGreaterThan(20);
  });

  it('name only test files that exist (a renamed file would silently drop out of a run)', () => {
    const lists: Record<string, string>[] = [PART_TESTS, FILE_TESTS];
    const named = lists.flatMap((l) => Object.values(l).flatMap((p) => p.split(',')));
    expect(named.filter((f) => !existsSync(join(REPO, f)))).toEqual([]);
    expect(Object.keys(NOT_RUN as Record<string, string>).filter((f) => !existsSync(join(REPO, f)))).toEqual([]);
  });
});

describe('a mutant applied as text (npm run mutate:recheck)', () => {
  const at = (line: number, column: number, endLine: number, endColumn: number) => ({
    start: { line, column },
    end: { line: endLine, column: endColumn },
  });

  it('keeps an operand together: a mutated `||` inside an `&&` chain is pasted in parentheses', () => {
    // Stryker mutates `a && b` (columns 7–13 of `x = a && b && c`) into `a || b`, printed without parentheses.
    const src = 'const x = a && b && c;\n';
    const out = applyMutant(src, {
      location: at(1, 11, 1, 17),
      replacement: 'a || b',
      mutatorName: 'LogicalOperator',
    });
    expect(out).toBe('const x = (a || b) && c;\n');
    const [a, b, c] = [true, false, false];
    // Unwrapped, it would be `a || b && c` (true); the mutant Stryker ran is `(a || b) && c` (false).
    expect(new Function('a', 'b', 'c', `return ${out.slice(10, -2)};`)(a, b, c)).toBe(false);
  });

  it('counts lines and 1-based columns, the end exclusive, on any line', () => {
    const src = 'one;\nif (p.length > 0) go();\n';
    expect(
      applyMutant(src, { location: at(2, 5, 2, 17), replacement: 'p.length >= 0', mutatorName: 'EqualityOperator' }),
    ).toBe('one;\nif ((p.length >= 0)) go();\n');
  });

  it('pastes a block or a string literal as it is', () => {
    const src = 'function f() {\n  return 1;\n}\nimport("./a.js");\n';
    expect(applyMutant(src, { location: at(1, 14, 3, 2), replacement: '{}', mutatorName: 'BlockStatement' })).toBe(
      'function f() {}\nimport("./a.js");\n',
    );
    expect(applyMutant(src, { location: at(4, 8, 4, 16), replacement: '""', mutatorName: 'StringLiteral' })).toBe(
      'function f() {\n  return 1;\n}\nimport("");\n',
    );
  });
});

describe('mutation parts of the trust boundary (scripts/mutate-trust.mjs)', () => {
  it('hold every file of src/policy, src/lock and src/state, or name why it is not mutated', () => {
    const parts: Record<string, string> = TRUST_PARTS;
    const skipped: Record<string, string> = TRUST_NOT_MUTATED;
    const listed = new Set([...Object.values(parts).flatMap((p) => p.split(',')), ...Object.keys(skipped)]);
    const files = ['policy', 'lock', 'state'].flatMap((d) =>
      readdirSync(join(REPO, 'src', d))
        .filter((f) => f.endsWith('.ts'))
        .map((f) => `src/${d}/${f}`),
    );
    expect(files.filter((f) => !listed.has(f))).toEqual([]);
    for (const reason of Object.values(skipped)) expect(reason.length).toBeGreaterThan(20);
  });

  it('name only source and test files that exist, each part with its tests and recheck', () => {
    const all: Record<string, string>[] = [TRUST_PARTS, TRUST_TESTS, TRUST_RECHECK];
    const named = all.flatMap((l) => Object.values(l).flatMap((p) => p.split(',')));
    expect(named.filter((f) => !existsSync(join(REPO, f)))).toEqual([]);
    expect(Object.keys(TRUST_TESTS).sort()).toEqual(Object.keys(TRUST_PARTS).sort());
    expect(Object.keys(TRUST_RECHECK).sort()).toEqual(Object.keys(TRUST_PARTS).sort());
    expect(Object.keys(TRUST_NOT_MUTATED as Record<string, string>).filter((f) => !existsSync(join(REPO, f)))).toEqual(
      [],
    );
  });
});
