// The rule tables of docs/foundation.md and docs/supply-chain.md state each rule's default severity
// and options: they must say what the code does (a severity decides validate's exit status).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadRules } from '../../src/lint/rules/index.js';
import { STRUCTURAL_RULES } from '../../src/lint/structural.js';
import { RUNNABLE_RULES } from '../../src/lint/runnable/index.js';
import { REPO } from '../helpers.js';

const rows = (doc: string) =>
  [...readFileSync(join(REPO, 'docs', doc), 'utf8').matchAll(/^\| `([a-z-]+)` \| (\w+) \|.*\| ([^|]*)\|$/gm)].map(
    (m) => ({ id: m[1]!, severity: m[2]!, options: m[3]!.trim() }),
  );

describe('docs rule tables', () => {
  it('list every lint rule once, with its default severity and options', async () => {
    const documented = [...rows('foundation.md'), ...rows('supply-chain.md')];
    const metas = [
      ...(await loadRules()).map((r) => r.meta),
      ...STRUCTURAL_RULES.filter((r) => r.id === 'routing'),
      ...RUNNABLE_RULES,
    ];
    expect(documented.map((d) => d.id).sort()).toEqual(metas.map((m) => m.id).sort());
    for (const m of metas) {
      const d = documented.find((x) => x.id === m.id)!;
      const options = Object.entries(m.options ?? {})
        .map(([k, v]) => `\`${k}: ${v}\``)
        .join(', ');
      expect({ id: d.id, severity: d.severity, options: d.options }).toEqual({
        id: m.id,
        severity: m.severity,
        options,
      });
    }
  });
});
