// `npm run mutate` measures src/select in parts (scripts/mutate-select.mjs): a new file must land in
// one of them, or be listed as not mutated with its reason, rather than go unmeasured in silence.
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO } from '../helpers.js';
import { NOT_MUTATED, SELECT_PARTS } from '../../scripts/mutate-select.mjs';

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
});
