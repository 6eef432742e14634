// validate predicts run (issue 27): contracts that can never run are errors at line:column with a
// hint, found without running the tool; and each one really fails under `toolbox run` with the
// code the message names. Contracts that do run are never flagged (no false errors), on every tier.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cpSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { cli, REPO, tempProject } from '../helpers.js';
import { onTier, testTiers } from '../sandbox/helpers.js';

const head = (id: string, loader: string) => `id: ${id}
name: ${id}
description: A tool used by the runnable checks of validate, with a long enough description. Use it in tests.
schema:
  type: object
  properties:
    text: { type: string, description: Any text. }
loader: ${loader}
`;

// Each bad contract: the rule and line:column validate must report, and the exit code run gives.
const BAD: Record<string, { files: Record<string, string>; rule: string; at: string; runCode: number; says: RegExp }> =
  {
    'an http tool without sandbox.network: true': {
      files: {
        'tool_registry/t.yaml': `${head('t', 'http')}loader_config:\n  url: "http://127.0.0.1:9/x"\n`,
      },
      rule: 'loader-network',
      at: '8:1',
      runCode: 7,
      says: /network is closed/,
    },
    'an http tool that closes the network explicitly': {
      files: {
        'tool_registry/t.yaml': `${head('t', 'http')}loader_config:\n  url: "http://127.0.0.1:9/x"\nsandbox:\n  network: false\n`,
      },
      rule: 'loader-network',
      at: '12:3',
      runCode: 7,
      says: /network is closed/,
    },
    'a ${VAR} that sandbox.env does not list': {
      files: {
        'tool_registry/t.yaml': `${head('t', 'http')}loader_config:\n  url: "http://127.0.0.1:9/x"\n  headers:\n    Authorization: "Bearer \${SECRET_TOKEN}"\nsandbox: { network: true, env: [OTHER] }\n`,
      },
      rule: 'loader-env',
      at: '12:5',
      runCode: 3,
      says: /\$\{SECRET_TOKEN\} is not in the contract's sandbox\.env/,
    },
    'a misspelled Python function': {
      files: {
        'tool_registry/t.yaml': `${head('t', 'python_function')}loader_config:\n  module: pkg.words\n  function: cuont\n`,
        'pkg/__init__.py': '',
        'pkg/words.py': 'import os\n\ndef count(text):\n    return len(text.split())\n',
      },
      rule: 'loader-function',
      at: '11:3',
      runCode: 3,
      says: /no function 'cuont'; did you mean 'count'\? \(functions: count\)/,
    },
    'a misspelled Python module in a package': {
      files: {
        'tool_registry/t.yaml': `${head('t', 'python_function')}loader_config:\n  module: pkg.wrods\n  function: count\n`,
        'pkg/__init__.py': '',
        'pkg/words.py': 'def count(text):\n    return 1\n',
      },
      rule: 'loader-module',
      at: '10:3',
      runCode: 3,
      says: /no module named 'pkg\.wrods' in package pkg \(modules there: words\); did you mean 'words'\?/,
    },
    'a misspelled top-level Python package': {
      files: {
        'tool_registry/t.yaml': `${head('t', 'python_function')}loader_config:\n  module: pgk.words\n  function: count\n`,
        'pkg/__init__.py': '',
        'pkg/words.py': 'def count(text):\n    return 1\n',
      },
      rule: 'loader-module',
      at: '10:3',
      runCode: 3,
      says: /no module named 'pgk' in the project root \(modules there: pkg\); did you mean 'pkg'\?/,
    },
    'a Python module that does not parse': {
      files: {
        'tool_registry/t.yaml': `${head('t', 'python_function')}loader_config:\n  module: pkg.words\n  function: count\n`,
        'pkg/__init__.py': '',
        'pkg/words.py': 'def count(text)\n    return 1\n',
      },
      rule: 'loader-module',
      at: '10:3',
      runCode: 4,
      says: /pkg\/words\.py:1:\d+: .*importing pkg\.words would fail/,
    },
    'a missing Node export': {
      files: {
        'tool_registry/t.yaml': `${head('t', 'node_module')}loader_config:\n  module: js/rev.mjs\n  function: revers\n`,
        'js/rev.mjs':
          "export function reverse({ text }) { return [...text].reverse().join(''); }\nexport const x = 1;\n",
      },
      rule: 'loader-function',
      at: '11:3',
      runCode: 3,
      says: /no export 'revers'; did you mean 'reverse'\? \(exports: reverse, x\)/,
    },
    'a Node module without the default export it is called by': {
      files: {
        'tool_registry/t.yaml': `${head('t', 'node_module')}loader_config:\n  module: js/rev.mjs\n`,
        'js/rev.mjs': 'export function reverse() { return 1; }\n',
      },
      rule: 'loader-function',
      at: '10:3',
      runCode: 3,
      says: /no export 'default'/,
    },
    'a Node module file that does not exist': {
      files: {
        'tool_registry/t.yaml': `${head('t', 'node_module')}loader_config:\n  module: js/rve.mjs\n  function: reverse\n`,
        'js/rev.mjs': 'export function reverse() { return 1; }\n',
      },
      rule: 'loader-module',
      at: '10:3',
      runCode: 3,
      says: /module js\/rve\.mjs does not exist .*did you mean 'js\/rev\.mjs'\?/,
    },
    'a command whose program is not installed': {
      files: {
        'tool_registry/t.yaml': `${head('t', 'command')}loader_config:\n  argv: [no-such-program-xyz, "{{text}}"]\n`,
      },
      rule: 'loader-program',
      at: '10:10',
      runCode: 6,
      says: /program 'no-such-program-xyz' is not on PATH/,
    },
    "a command whose program's path does not exist in the project": {
      files: {
        'tool_registry/t.yaml': `${head('t', 'command')}loader_config:\n  argv: [./bin/tool.sh, "{{text}}"]\n`,
      },
      rule: 'loader-program',
      at: '10:10',
      runCode: 6,
      says: /program \.\/bin\/tool\.sh does not exist or is not executable/,
    },
  };

const cleanups: (() => void)[] = [];
afterAll(() => cleanups.forEach((c) => c()));
const project = (files: Record<string, string>) => {
  const p = tempProject(files);
  cleanups.push(p.cleanup);
  return p;
};

describe('validate predicts run: a contract that can never run is an error at line:column with a hint', () => {
  it.each(Object.entries(BAD))('%s', async (_name, c) => {
    const p = project(c.files);
    const v = await cli(['validate', '--no-routing', '--json'], { cwd: p.dir });
    expect(v.code, v.stdout).toBe(1);
    const ds = (
      v.json.diagnostics as { rule: string; line: number; column: number; message: string; hint: string }[]
    ).filter((d) => d.rule.startsWith('loader-'));
    expect(ds.map((d) => `${d.rule} ${d.line}:${d.column}`)).toEqual([`${c.rule} ${c.at}`]);
    expect(ds[0]!.message).toMatch(c.says);
    expect(ds[0]!.hint).toMatch(/\S/);
    // And run really fails, as the message says it would.
    const r = await cli(['run', 't', '--text', 'a b', '--json'], { cwd: p.dir, env: { SECRET_TOKEN: 'x' } });
    expect(r.code, r.stderr).toBe(c.runCode);
  });

  it('the human output names the rule, the line and column, and the hint', async () => {
    const p = project(BAD['a misspelled Python function']!.files);
    const v = await cli(['validate', '--no-routing'], { cwd: p.dir });
    expect(v.stdout).toMatch(
      /tool_registry\/t\.yaml\n +11:3 +error +module pkg\.words has no function 'cuont'.*loader-function\n +→ Fix loader_config\.function/,
    );
  });

  it('each rule can be turned down or off in lint.rules', async () => {
    const p = project({
      ...BAD['a command whose program is not installed']!.files,
      'toolbox.config.yaml': 'lint:\n  rules: { loader-program: warning }\n',
    });
    const v = await cli(['validate', '--no-routing', '--json'], { cwd: p.dir });
    expect(v.code).toBe(0);
    expect(v.json.diagnostics.map((d: { rule: string; severity: string }) => `${d.rule} ${d.severity}`)).toEqual([
      'loader-program warning',
    ]);
    writeFileSync(join(p.dir, 'toolbox.config.yaml'), 'lint:\n  rules: { loader-program: off }\n');
    expect((await cli(['validate', '--no-routing', '--json'], { cwd: p.dir })).json.diagnostics).toEqual([]);
  });
});

// Contracts that run: none of them may be flagged (names bound in ways a naive reader misses, modules
// whose names cannot be known without running them).
const GOOD: Record<string, string> = {
  'tool_registry/py1.yaml': `${head('py1', 'python_function')}loader_config: { module: pkg.a, function: imported }\n`,
  'tool_registry/py2.yaml': `${head('py2', 'python_function')}loader_config: { module: pkg.a, function: in_try }\n`,
  'tool_registry/py3.yaml': `${head('py3', 'python_function')}loader_config: { module: pkg.a, function: assigned }\n`,
  'tool_registry/py4.yaml': `${head('py4', 'python_function')}loader_config: { module: pkg.star, function: anything }\n`,
  'tool_registry/py5.yaml': `${head('py5', 'python_function')}loader_config: { module: pkg.lazy, function: anything }\n`,
  'tool_registry/py6.yaml': `${head('py6', 'python_function')}loader_config: { module: pkg, function: from_init }\n`,
  'tool_registry/py7.yaml': `${head('py7', 'python_function')}loader_config: { module: single, function: go }\n`,
  'tool_registry/js1.yaml': `${head('js1', 'node_module')}loader_config: { module: js/a.mjs, function: renamed }\n`,
  'tool_registry/js2.yaml': `${head('js2', 'node_module')}loader_config: { module: js/a.mjs, function: fromStar }\n`,
  'tool_registry/js3.yaml': `${head('js3', 'node_module')}loader_config: { module: js/obj.mjs, function: inObject }\n`,
  'tool_registry/js4.yaml': `${head('js4', 'node_module')}loader_config: { module: js/c.cjs, function: anything }\n`,
  'tool_registry/js5.yaml': `${head('js5', 'node_module')}loader_config: { module: js/pkg.mjs, function: fromPackage }\n`,
  'tool_registry/js6.yaml': `${head('js6', 'node_module')}loader_config: { module: js/def.mjs }\n`,
  'tool_registry/c1.yaml': `${head('c1', 'command')}loader_config: { argv: [./bin/run.sh, "{{text}}"] }\n`,
  'tool_registry/c2.yaml': `${head('c2', 'command')}loader_config: { argv: [echo, "{{text}}"] }\n`,
  'tool_registry/h1.yaml': `${head('h1', 'http')}loader_config:\n  url: "http://127.0.0.1:9/{{text}}"\n  headers: { X-Key: "\${API_KEY}" }\nsandbox: { network: true, env: [API_KEY] }\n`,
  'pkg/__init__.py': 'from .helpers import from_init\n',
  'pkg/helpers.py': 'def from_init(text):\n    return text\n',
  'pkg/a.py':
    'from .helpers import from_init as imported\ntry:\n    import json\n    def in_try(text):\n        return text\nexcept ImportError:\n    pass\nassigned = in_try\n',
  'pkg/star.py': 'from .helpers import *\n',
  'pkg/lazy.py': 'def __getattr__(name):\n    return lambda **kw: name\n',
  'single.py': 'if True:\n    def go(text):\n        return text\n',
  'js/a.mjs': "function local() { return 1; }\nexport { local as renamed };\nexport * from './b.mjs';\n",
  'js/b.mjs': 'export const fromStar = () => 2;\n',
  'js/obj.mjs': 'export default { inObject() { return 3; } };\n',
  'js/c.cjs': 'module.exports = { anything() { return 4; } };\n',
  'js/pkg.mjs': "export * from 'some-package';\n",
  'js/def.mjs': 'export default async function ({ text }) { return text; }\n',
  'bin/run.sh': '#!/bin/sh\necho "$1"\n',
};

describe('no false errors', () => {
  let p: ReturnType<typeof tempProject>;
  beforeAll(async () => {
    p = project(GOOD);
    const { chmodSync } = await import('node:fs');
    chmodSync(join(p.dir, 'bin', 'run.sh'), 0o755);
  });

  it('on contracts that run, on every sandbox tier', async () => {
    for (const tier of await testTiers()) {
      const v = await onTier(tier, () => cli(['validate', '--no-routing', '--json'], { cwd: p.dir }));
      const loaderFindings = (v.json.diagnostics as { rule: string; file: string; message: string }[]).filter((d) =>
        d.rule.startsWith('loader-'),
      );
      expect({ tier, loaderFindings }).toEqual({ tier, loaderFindings: [] });
    }
    // …and each of them does run (the ones whose module can be imported here).
    for (const id of ['py1', 'py2', 'py3', 'py6', 'py7', 'js1', 'js2', 'js3', 'js6', 'c1', 'c2']) {
      const r = await cli(['run', id, '--text', 'hi', '--json'], { cwd: p.dir });
      expect({ id, code: r.code, err: r.stderr }).toMatchObject({ id, code: 0 });
    }
  });

  it('on every tier the Python check finds the same misspelling (it is not skipped where the sandbox is weaker)', async () => {
    const q = project(BAD['a misspelled Python function']!.files);
    for (const tier of await testTiers()) {
      const v = await onTier(tier, () => cli(['validate', '--no-routing', '--json'], { cwd: q.dir }));
      expect({ tier, rules: v.json.diagnostics.map((d: { rule: string }) => d.rule) }).toEqual({
        tier,
        rules: ['loader-function'],
      });
    }
  });

  it('on the shipped registry, which the checks really read (a misspelling in a copy is found)', async () => {
    const v = await cli(['validate', '--no-routing', '--json'], { cwd: REPO });
    expect(v.json.diagnostics.filter((d: { rule: string }) => d.rule.startsWith('loader-'))).toEqual([]);
    const copy = project({});
    for (const d of ['tool_registry', 'my_tools']) cpSync(join(REPO, d), join(copy.dir, d), { recursive: true });
    const f = join(copy.dir, 'tool_registry', 'calculator.yaml');
    const text = readFileSync(f, 'utf8');
    const fn = /function: (\w+)/.exec(text)![1]!;
    writeFileSync(f, text.replace(`function: ${fn}`, `function: ${fn}x`));
    const bad = await cli(['validate', '--no-routing', '--json'], { cwd: copy.dir });
    // (The copy's send_email and general_search ask for credentials you have not granted: sandbox-env warnings.)
    const rules = bad.json.diagnostics.map((d: { rule: string; message: string }) => d.rule);
    expect(rules.filter((r: string) => r !== 'sandbox-env')).toEqual(['loader-function']);
  });
});
