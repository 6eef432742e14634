// The labelled poisoning corpus (test/fixtures/poison/, README there) through the real validate:
// recall per class and language at or above the floors, few clean cases flagged, for the dev part
// (tuned on) and the held-out part (measured on only). `npm run bench -- poison` prints the same
// figures in full; this keeps them from sliding back.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resolveProject } from '../../src/config.js';
import { validateProject } from '../../src/lint/validate.js';
import { CLASSES, PARTS, loadPart, measure, score, writeProject } from '../../bench/poison-corpus.mjs';

/** The floors: the issue asks for 0.9 recall and few false alarms; the corpus is held to them per class. */
const RECALL_PER_CLASS = 0.9;
const RECALL_ALL = 0.95;
const CLEAN_FLAGGED_MAX = 0.02;

type Row = ReturnType<typeof score>[number];

describe.each(PARTS)('poisoning corpus, %s part', (part) => {
  let dir = '';
  let rows: Row[] = [];
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), `tb-poison-corpus-${part}-`));
    const byFile = writeProject(dir, loadPart(part));
    const r = await validateProject(resolveProject({ cwd: dir }), { routing: false });
    rows = score(byFile, r.diagnostics);
  }, 120_000);
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('has poisoned cases of every class in both languages, obfuscated ones, and clean ones', () => {
    for (const cls of CLASSES)
      for (const lang of ['en', 'zh'])
        expect(rows.filter((r) => r.class === cls && r.lang === lang).length).toBeGreaterThan(4);
    expect(rows.filter((r) => r.obfuscation !== 'none').length).toBeGreaterThan(20);
    expect(rows.filter((r) => r.class === 'clean').length).toBeGreaterThan(40);
  });

  it.each(CLASSES)('class %s: recall at the floor in each language', (cls) => {
    for (const lang of ['en', 'zh']) {
      const m = measure(
        rows.filter((r) => r.lang === lang),
        cls,
      );
      const missed = rows.filter((r) => r.class === cls && r.lang === lang && !r.caught).map((r) => r.id);
      expect(m.recall, `${cls}/${lang} missed: ${missed.join(', ')}`).toBeGreaterThanOrEqual(RECALL_PER_CLASS);
    }
  });

  it('all classes together: recall, and what validate sees (any poisoning error)', () => {
    const poisoned = rows.filter((r) => r.class !== 'clean');
    expect(poisoned.filter((r) => r.caught).length / poisoned.length).toBeGreaterThanOrEqual(RECALL_ALL);
    expect(poisoned.filter((r) => r.detected).length / poisoned.length).toBeGreaterThanOrEqual(RECALL_ALL);
  });

  it('few clean cases are flagged', () => {
    const clean = rows.filter((r) => r.class === 'clean');
    const flagged = clean.filter((r) => r.detected).map((r) => `${r.id} (${r.got.join(', ')})`);
    expect(flagged.length / clean.length, flagged.join('; ')).toBeLessThanOrEqual(CLEAN_FLAGGED_MAX);
  });
});
