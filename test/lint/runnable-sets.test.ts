// No false errors from validate's runnable checks on the public benchmark sets' contracts
// (/work/shared/bench, converted as bench/convert-sets.mjs converts them). The sets are read from
// there at test time when present (measurement only: never copied into the project).
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { parseContract } from '../../src/contract/parse.js';
import { runnableContractDiagnostics } from '../../src/lint/runnable/index.js';
import type { Project } from '../../src/config.js';
import { REPO } from '../helpers.js';
// @ts-expect-error: a plain .mjs bench module without types
import { contract, contractId, jl, SHARED } from '../../bench/convert-sets.mjs';

// bench/convert-sets.mjs looks beside the clone (/work/shared/bench for /work/main); a worktree under
// /work/wt/ finds it one level further up.
const DIR = [SHARED as string, join(REPO, '..', '..', 'shared', 'bench')].find((d) => existsSync(d));
const sets = DIR ? readdirSync(DIR).filter((d) => existsSync(join(DIR, d, 'tools.jsonl'))) : [];

describe.skipIf(sets.length === 0)('runnable checks on the public sets', () => {
  it.each(sets)('%s: no loader-* finding on any converted contract', (set) => {
    const project = { root: '/nonexistent-project', stateDir: '/nonexistent-project/.toolbox' } as Project;
    const severity = { 'loader-network': 'error', 'loader-env': 'error', 'loader-program': 'error' } as const;
    let n = 0;
    const found: string[] = [];
    for (const t of jl(join(DIR!, set, 'tools.jsonl')) as { id: string }[]) {
      const text = stringify(contract(t, contractId(t.id)), { lineWidth: 0 });
      const p = parseContract(`${set}/${t.id}.yaml`, new TextEncoder().encode(text));
      if (!p.contract) continue; // a set's schema toolbox refuses: validate says so under another rule
      n++;
      for (const d of runnableContractDiagnostics(
        project,
        { file: p.file, contract: p.contract, locate: p.locate },
        severity,
      ))
        found.push(`${t.id}: ${d.rule} ${d.message}`);
    }
    expect(n).toBeGreaterThan(100);
    expect(found).toEqual([]);
  });
});
