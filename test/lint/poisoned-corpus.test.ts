// The poisoned-contract corpus: every file in test/fixtures/poisoned names, on its first line,
// the poisoning rules it must trigger (and no other poisoning rule may fire on it). The shipped
// registry must stay clean of all of them.
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { resolveProject } from '../../src/config.js';
import { validateProject } from '../../src/lint/validate.js';
import { REPO } from '../helpers.js';

const POISON = new Set([
  'contract-invisible-unicode',
  'poison-override',
  'poison-concealment',
  'poison-secret-env',
  'poison-secret-file',
  'poison-exfiltration',
  'poison-tool-steering',
  'description-cross-tool',
  'description-url-or-blob',
  'schema-value-instructions',
  'description-over-budget',
]);
const CORPUS = join(REPO, 'test', 'fixtures', 'poisoned');
const files = readdirSync(CORPUS).filter((f) => f.endsWith('.yaml'));
const expected = (f: string) => {
  const m = /^# triggers: (.*)$/m.exec(readFileSync(join(CORPUS, f), 'utf8'));
  if (!m) throw new Error(`${f}: no "# triggers:" line`);
  return m[1]!.startsWith('(none') ? [] : m[1]!.split(/,\s*/).sort();
};

describe('poisoned-contract corpus', () => {
  const root = mkdtempSync(join(tmpdir(), 'tb-poison-'));
  cpSync(CORPUS, join(root, 'tool_registry'), { recursive: true });
  afterAll(() => rmSync(root, { recursive: true, force: true }));
  const result = validateProject(resolveProject({ cwd: root }), { routing: false });

  it('covers every poisoning rule', async () => {
    const all = new Set(files.flatMap(expected));
    for (const r of POISON) expect(all, r).toContain(r);
    expect((await result).diagnostics.length).toBeGreaterThan(0);
  });

  for (const f of files) {
    it(`${f} triggers ${expected(f).join(', ') || 'nothing'}`, async () => {
      const want = expected(f);
      const got = [
        ...new Set(
          (await result).diagnostics
            .filter((d) => d.file.endsWith(`/${f}`) && (POISON.has(d.rule) || want.includes(d.rule)))
            .map((d) => d.rule),
        ),
      ].sort();
      expect(got).toEqual(want);
    });
  }
});

describe('the shipped registry', () => {
  it('is clean of every poisoning rule', async () => {
    // On a copy: validating writes the registry cache into the project's .toolbox/.
    const copy = mkdtempSync(join(tmpdir(), 'toolbox-shipped-poison-'));
    for (const d of ['tool_registry', 'my_tools', 'toolbox.config.yaml'])
      cpSync(join(REPO, d), join(copy, d), { recursive: true, filter: (src) => !src.includes('__pycache__') });
    const r = await validateProject(resolveProject({ cwd: copy }), { routing: false }).finally(() =>
      rmSync(copy, { recursive: true, force: true }),
    );
    expect(r.diagnostics.filter((d) => POISON.has(d.rule))).toEqual([]);
    expect(r.summary.tools).toBeGreaterThan(10);
  });
});
