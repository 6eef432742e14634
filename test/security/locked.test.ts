// Issue 23 item 9: `--locked` pins what runs. After `toolbox lock`, a cloned project's update edits
// a helper module next to the tool, adds a package folder that shadows a module, plants an
// unchecked-hash `.pyc` (Python loads those without looking at the source), adds a program to
// `requires.bins` or changes a Node tool's package.json: `run --locked` must refuse, naming the file
// and `toolbox lock`, or (the `.pyc`) the planted bytecode must simply never run.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { expected } from './cases.js';
import { contract, project, runOn, tiers } from './helpers.js';

const tier = tiers[0]!;
const cleanups: (() => void)[] = [];
afterEach(() => {
  while (cleanups.length) cleanups.pop()!();
});

// The pyc maker runs inside the sandbox with the interpreter toolbox uses, so the bytecode has the
// right magic number and cache tag; it returns the file's name and bytes (base64).
const MAKER = `import base64, importlib.util, sys
from importlib._bootstrap_external import _code_to_hash_pyc
def make(x=""):
    code = compile('def word():\\n    return "planted"\\n', "helper.py", "exec")
    data = _code_to_hash_pyc(code, importlib.util.source_hash(b""), checked=False)
    return {"name": "helper.%s.pyc" % sys.implementation.cache_tag, "data": base64.b64encode(bytes(data)).decode()}
`;

function pyProject(extra = '') {
  const p = project({
    'my_tools/__init__.py': '',
    'my_tools/helper.py': 'def word():\n    return "genuine"\n',
    'my_tools/tool.py': 'from my_tools import helper\ndef run(x=""):\n    return helper.word()\n',
    'my_tools/maker.py': MAKER,
    'tool_registry/speak.yaml': contract('speak', 'python_function', '{ module: my_tools.tool, function: run }', extra),
    'tool_registry/maker.yaml': contract('maker', 'python_function', '{ module: my_tools.maker, function: make }'),
  });
  cleanups.push(p.cleanup);
  return p;
}

const run = (dir: string, locked = true) =>
  runOn(tier, dir, ['run', 'speak', ...(locked ? ['--locked'] : []), '--json']);

async function locked(dir: string) {
  const l = await runOn(tier, dir, ['lock', '--json']);
  expect(l.code, l.stderr).toBe(0);
  const ok = await run(dir);
  expect([ok.code, ok.json?.result], ok.stderr).toEqual([0, 'genuine']);
}

function readLockFiles(dir: string, id: string): Record<string, string> {
  const text = readFileSync(join(dir, 'toolbox.lock'), 'utf8');
  return (parse(text) as { tools: Record<string, { runs: { files?: Record<string, string> } }> }).tools[id]!.runs
    .files!;
}

function refusedNaming(r: Awaited<ReturnType<typeof run>>, file: string) {
  expect([r.code, r.errorJson?.error.code]).toEqual([3, 'lock_drift']);
  expect(r.errorJson?.error.message).toContain(file);
  expect(r.errorJson?.error.hint).toContain('toolbox lock');
}

describe('issue 23 item 9: --locked pins what runs', () => {
  it('a helper module next to the tool, edited after the lock: refused, naming the file', async () => {
    expect(expected('locked-helper-edited', tier)).toBe('refused');
    const p = pyProject();
    await locked(p.dir);
    p.write('my_tools/helper.py', 'def word():\n    return "edited"\n');
    refusedNaming(await run(p.dir), 'my_tools/helper.py changed');
    // `toolbox lock` accepts it.
    await runOn(tier, p.dir, ['lock']);
    expect((await run(p.dir)).json?.result).toBe('edited');
  });

  it('a package folder helper/ that shadows helper.py appears: refused', async () => {
    expect(expected('locked-shadowing-package', tier)).toBe('refused');
    const p = pyProject();
    await locked(p.dir);
    p.write('my_tools/helper/__init__.py', 'def word():\n    return "shadow"\n');
    refusedNaming(await run(p.dir), 'my_tools/helper/__init__.py added');
  });

  it('a planted unchecked-hash __pycache__/helper.cpython-3*.pyc is never loaded, locked or not, on every tier', async () => {
    const p = pyProject();
    await locked(p.dir);
    const made = await runOn(tier, p.dir, ['run', 'maker', '--json']);
    expect(made.code, made.stderr).toBe(0);
    const { name, data } = made.json.result as { name: string; data: string };
    expect(name).toMatch(/^helper\.cpython-3\d+\.pyc$/);
    mkdirSync(join(p.dir, 'my_tools', '__pycache__'), { recursive: true });
    writeFileSync(join(p.dir, 'my_tools', '__pycache__', name), Buffer.from(data, 'base64'));
    for (const t of tiers) {
      expect(expected('locked-planted-pyc', t)).toBe('blocked');
      for (const lockedRun of [true, false]) {
        const r = await runOn(t, p.dir, ['run', 'speak', ...(lockedRun ? ['--locked'] : []), '--json']);
        expect({ t, lockedRun, code: r.code, result: r.json?.result }).toEqual({
          t,
          lockedRun,
          code: 0,
          result: 'genuine',
        });
      }
    }
  });

  it('a sourceless helper.pyc in the package (no helper.py) is a file the lock names', async () => {
    const p = pyProject();
    await locked(p.dir);
    p.write('my_tools/extra.pyc', 'not really bytecode');
    refusedNaming(await run(p.dir), 'my_tools/extra.pyc added');
  });

  it('requires.bins gained an entry: refused, naming requires.bins', async () => {
    expect(expected('locked-requires-bins', tier)).toBe('refused');
    const p = pyProject('requires: { bins: [sh] }');
    await locked(p.dir);
    const f = join(p.dir, 'tool_registry', 'speak.yaml');
    writeFileSync(f, readFileSync(f, 'utf8').replace('bins: [sh]', 'bins: [sh, curl]'));
    const r = await run(p.dir);
    refusedNaming(r, 'requires.bins');
    expect(r.errorJson?.error.message).toContain('curl');
  });

  it('a script given to an interpreter (`[python3, scripts/run.py]`): its folder is pinned too', async () => {
    const p = project({
      'scripts/run.py': 'import helper\nprint(helper.word())\n',
      'scripts/helper.py': 'def word():\n    return "genuine"\n',
      'tool_registry/speak.yaml': contract('speak', 'command', '{ argv: [python3, scripts/run.py] }'),
    });
    cleanups.push(p.cleanup);
    const l = await runOn(tier, p.dir, ['lock', '--json']);
    expect(l.code, l.stderr).toBe(0);
    expect(Object.keys(readLockFiles(p.dir, 'speak'))).toEqual(['scripts/', 'scripts/helper.py', 'scripts/run.py']);
    p.write('scripts/helper.py', 'def word():\n    return "edited"\n');
    refusedNaming(await run(p.dir), 'scripts/helper.py changed');
  });

  it("a Node tool's package.json (exports, type) or a sibling module changed: refused, naming it", async () => {
    expect(expected('locked-node-package', tier)).toBe('refused');
    const p = project({
      'js/package.json': '{ "type": "module" }',
      'js/tool.js': 'import { word } from "./helper.js";\nexport function run() { return word(); }\n',
      'js/helper.js': 'export function word() { return "genuine"; }\n',
      'tool_registry/speak.yaml': contract('speak', 'node_module', '{ module: js/tool.js, function: run }'),
    });
    cleanups.push(p.cleanup);
    await locked(p.dir);
    p.write('js/helper.js', 'export function word() { return "edited"; }\n');
    refusedNaming(await run(p.dir), 'js/helper.js changed');
    await runOn(tier, p.dir, ['lock']);
    p.write('js/package.json', '{ "type": "module", "imports": { "#h": "./other.js" } }');
    refusedNaming(await run(p.dir), 'js/package.json changed');
  });
});
