// Item 10: `deps --install` runs no project code outside the sandbox unless the user says --allow-local.
import { afterAll, describe, expect, it } from 'vitest';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { cli } from '../helpers.js';
import { expected } from './cases.js';
import { contract, project, scratch } from './helpers.js';

const out = scratch();
const mark = join(out.dir, 'PWNED');
const p = project({
  'my_tools/__init__.py': '',
  'my_tools/t.py': 'def f(x=""):\n    return 1\n',
  'localpkg/setup.py': `open(${JSON.stringify(mark)}, "w").write("ran as the user, outside the sandbox")\nfrom setuptools import setup\nsetup(name="localpkg", version="1.0")\n`,
  'localpkg/pyproject.toml':
    '[build-system]\nrequires = ["setuptools"]\nbuild-backend = "setuptools.build_meta"\n[project]\nname = "localpkg"\nversion = "1.0"\n',
  'tool_registry/t.yaml': contract(
    't',
    'python_function',
    '{ module: my_tools.t, function: f }',
    'requires: { python: ["../localpkg"] }',
  ),
});
afterAll(() => {
  p.cleanup();
  out.cleanup();
});

describe('item 10: deps --install', () => {
  it('refuses a local folder requirement (its build runs project code) without --allow-local', async () => {
    expect(expected('deps-local-build', 'bwrap')).toBe('refused');
    const r = await cli(['deps', '--install', '--json'], { cwd: p.dir });
    expect(r.code).toBe(1);
    expect(r.json.install).toEqual([expect.objectContaining({ id: 't', status: 'failed' })]);
    expect(existsSync(mark)).toBe(false);
    expect(existsSync(join(p.dir, '.toolbox', 'envs', 't'))).toBe(false);
  }, 60_000);
});
