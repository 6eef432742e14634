// Issue 34 item 2: the lock pins everything a tool can load, or refuses. A tool package that grows
// past 20,000 files was locked as "too many files" and then drifted unnoticed; now `lock` refuses
// it (lock_tool_too_large, exit 3, saying how to narrow it), and so does `run --locked` for a tool
// locked while it was small: one file edited under the cap could otherwise run unpinned.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { MAX_ENTRIES } from '../../src/lock/code.js';
import { expected } from './cases.js';
import { contract, project, runOn, tiers } from './helpers.js';

const tier = tiers[0]!;
const p = project({
  'big_tool/__init__.py': '',
  'big_tool/tool.py': 'def run(x=""):\n    return "ran"\n',
  'tool_registry/big.yaml': contract('big', 'python_function', '{ module: big_tool.tool, function: run }'),
});
afterAll(() => p.cleanup());

describe('issue 34 item 2: a tool too large to pin cannot be locked', () => {
  it('lock and run --locked refuse it with lock_tool_too_large (exit 3) once it passes the limit', async () => {
    expect(expected('locked-too-many-files', 'bwrap')).toBe('refused');
    const l = await runOn(tier, p.dir, ['lock', '--json']);
    expect(l.code, l.stderr).toBe(0);
    const ok = await runOn(tier, p.dir, ['run', 'big', '--locked', '--json']);
    expect([ok.code, ok.json?.result], ok.stderr).toEqual([0, 'ran']);

    // The package grows past the limit (data files beside the code), one of them a module it could import.
    const data = join(p.dir, 'big_tool', 'data');
    mkdirSync(data);
    for (let i = 0; i <= MAX_ENTRIES; i++) writeFileSync(join(data, `f${i}.txt`), '');
    writeFileSync(join(p.dir, 'big_tool', 'data', 'f7.py'), 'print("unpinned")\n');

    const again = await runOn(tier, p.dir, ['lock', '--json']);
    expect(again.code).toBe(3);
    expect(again.errorJson?.error).toMatchObject({ code: 'lock_tool_too_large', details: { path: 'big_tool' } });
    expect(again.errorJson?.error.hint).toMatch(/Narrow/);
    const refused = await runOn(tier, p.dir, ['run', 'big', '--locked', '--json']);
    expect(refused.code).toBe(3);
    expect(refused.errorJson?.error.code).toBe('lock_tool_too_large');
  });
});
