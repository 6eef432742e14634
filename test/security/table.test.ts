// docs/sandbox.md's table of hostile cases is the suite's own list (cases.ts): this keeps them equal.
// UPDATE_DOCS=1 npx vitest run test/security/table.test.ts rewrites the table in place.
import { describe, expect, it } from 'vitest';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { REPO } from '../helpers.js';
import { CASES, renderTable } from './cases.js';

const DOC = join(REPO, 'docs', 'sandbox.md');
const START = '<!-- hostile-cases:start (generated from test/security/cases.ts) -->';
const END = '<!-- hostile-cases:end -->';

describe('docs/sandbox.md', () => {
  it('shows exactly the hostile cases the suite asserts, with their outcome per tier', () => {
    const doc = readFileSync(DOC, 'utf8');
    const a = doc.indexOf(START);
    const b = doc.indexOf(END);
    expect(a).toBeGreaterThan(-1);
    expect(b).toBeGreaterThan(a);
    const want = `${START}\n${renderTable()}\n${END}`;
    if (process.env.UPDATE_DOCS) writeFileSync(DOC, doc.slice(0, a) + want + doc.slice(b + END.length));
    else expect(doc.slice(a, b + END.length)).toBe(want);
  });

  it('every case is asserted by some test file of the suite', () => {
    const src = readdirSync(join(REPO, 'test', 'security'))
      .filter((f) => f.endsWith('.test.ts') && f !== 'table.test.ts')
      .map((f) => readFileSync(join(REPO, 'test', 'security', f), 'utf8'))
      .join('\n');
    for (const id of Object.keys(CASES)) expect(src, id).toContain(`'${id}'`);
  });
});
