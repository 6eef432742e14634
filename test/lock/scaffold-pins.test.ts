// Issue 38 item 4: tools made by `toolbox new` are laid out so that editing one drifts only that tool
// in `validate --locked`, and the sandbox shows each tool only its own module (never less pinned than
// shown): Python modules in the namespace package my_tools/ (no __init__.py), each Node module in a
// folder of its own. A regular package (with __init__.py) is still shown and pinned whole.
import { chmodSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { pythonModulePaths } from '../../src/sandbox/tool-paths.js';
import { cli, tempProject } from '../helpers.js';
import { runOn, tiers } from '../security/helpers.js';

const p = tempProject({});
chmodSync(p.dir, 0o755);
afterAll(() => p.cleanup());

const drifted = async () => {
  const r = await cli(['validate', '--locked', '--no-routing', '--json'], { cwd: p.dir });
  const ds = (r.json.diagnostics as { rule: string; file: string }[]).filter((d) => d.rule.startsWith('lock-'));
  return [...new Set(ds.map((d) => d.file.split('/').pop()))].sort();
};

describe('toolbox new and the lock', () => {
  it('editing one scaffolded tool drifts only that tool', async () => {
    expect((await cli(['init', '--yes'], { cwd: p.dir })).code).toBe(0);
    for (const [id, loader] of [
      ['second_py', 'python_function'],
      ['first_js', 'node_module'],
      ['second_js', 'node_module'],
    ])
      expect(
        (await cli(['new', id!, '--loader', loader!, '--description', `Echo the input back (${id}).`], { cwd: p.dir }))
          .code,
      ).toBe(0);
    expect((await cli(['lock'], { cwd: p.dir })).code).toBe(0);
    expect(await drifted()).toEqual([]);
    const py = join(p.dir, 'my_tools', 'second_py.py');
    writeFileSync(py, readFileSync(py, 'utf8') + '\n# edited\n');
    const js = join(p.dir, 'my_tools', 'first_js', 'first_js.mjs');
    writeFileSync(js, readFileSync(js, 'utf8') + '\n// edited\n');
    expect(await drifted()).toEqual(['first_js.yaml', 'second_py.yaml']);
  });

  it('shows a namespace package tool its module file alone, a regular package whole', () => {
    expect(pythonModulePaths(p.dir, 'my_tools.word_count')).toEqual([join(p.dir, 'my_tools', 'word_count.py')]);
    expect(pythonModulePaths(p.dir, 'my_tools.missing')).toEqual([]);
    expect(pythonModulePaths(p.dir, 'my_tools')).toEqual([join(p.dir, 'my_tools')]);
    const q = tempProject({
      'pkg/__init__.py': '',
      'pkg/a.py': '',
      'ns/sub/__init__.py': '',
      'ns/sub/b.py': '',
      'top.py': '',
    });
    try {
      expect(pythonModulePaths(q.dir, 'pkg.a')).toEqual([join(q.dir, 'pkg')]);
      expect(pythonModulePaths(q.dir, 'ns.sub.b')).toEqual([join(q.dir, 'ns', 'sub')]);
      expect(pythonModulePaths(q.dir, 'top')).toEqual([join(q.dir, 'top.py')]);
      expect(pythonModulePaths(q.dir, 'pkg..a')).toEqual([]);
      expect(pythonModulePaths(q.dir, '../x')).toEqual([]);
    } finally {
      q.cleanup();
    }
  });

  it.runIf(tiers.includes('bwrap'))('on bwrap a scaffolded Python tool cannot read its sibling tool', async () => {
    const spy = join(p.dir, 'my_tools', 'second_py.py');
    writeFileSync(
      spy,
      `import os\ndef second_py(input=""):\n    here = os.path.dirname(os.path.abspath(__file__))\n    try:\n        return open(os.path.join(here, "word_count.py")).read()[:20]\n    except OSError as e:\n        return type(e).__name__\n`,
    );
    const r = await runOn('bwrap', p.dir, ['run', 'second_py', '--input', 'x', '--json']);
    expect(r.errorJson?.error).toBeUndefined();
    expect(r.json.result).toBe('FileNotFoundError');
    // The tool itself still runs from its namespace package.
    const w = await runOn('bwrap', p.dir, ['run', 'word_count', '--text', 'a b c', '--json']);
    expect(w.json.result).toMatchObject({ words: 3 });
  });
});
