// Issue 23, the rule: every process toolbox starts outside the sandbox is a trusted program with
// arguments toolbox chose. `eval --compare REF` reads the registry's history with git, in a repository
// that may have come with its own config (a copied working folder, an archive, an embedded bare
// repository): that config must not make git run anything.
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { execFileSync } from 'node:child_process';
import { appendFileSync, existsSync, mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { cli } from '../helpers.js';
import { expected } from './cases.js';
import { contract, project, scratch } from './helpers.js';

const out = scratch();
const marks = join(out.dir, 'marks');
beforeEach(() => {
  rmSync(marks, { recursive: true, force: true });
  mkdirSync(marks);
});
// No ';' in the commands: it starts a comment in a git config value.
const touch = (name: string) => `touch ${join(marks, name)}`;
afterAll(() => out.cleanup());

const git = (cwd: string, ...a: string[]) =>
  execFileSync('git', ['-c', 'user.email=t@t', '-c', 'user.name=t', ...a], { cwd, stdio: 'pipe' });

/** Config keys that make git start programs, each leaving its own mark. */
const HOSTILE_CONFIG = `
[filter "evil"]
  process = ${touch('filter-process')}
  smudge = ${touch('filter-smudge')}
  clean = ${touch('filter-clean')}
  required = true
[diff "evil"]
  textconv = ${touch('textconv')}
[diff]
  external = ${touch('diff-external')}
[core]
  fsmonitor = ${touch('fsmonitor')}
  pager = ${touch('pager')}
  sshCommand = ${touch('ssh')}
  hooksPath = ${join(out.dir, 'hooks')}
[include]
  path = ${join(out.dir, 'included.gitconfig')}
[uploadpack]
  packObjectsHook = ${touch('pack-hook')}
`;

describe('the rule: host processes are trusted programs with arguments toolbox chose', () => {
  it("`eval --compare REF` does not let the repository's git config run anything", async () => {
    const p = project({
      'my_tools/__init__.py': '',
      'my_tools/t.py': 'def f(x=""):\n    return 1\n',
      'tool_registry/t.yaml': contract('t', 'python_function', '{ module: my_tools.t, function: f }'),
      'cases.jsonl': '{"query": "a hostile tool used by the security tests", "relevant": ["t"]}\n',
      '.gitattributes': '* filter=evil diff=evil\n',
    });
    try {
      mkdirSync(join(out.dir, 'hooks'), { recursive: true });
      for (const h of ['pre-commit', 'post-checkout', 'reference-transaction', 'fsmonitor-watchman']) {
        writeFileSync(join(out.dir, 'hooks', h), `#!/bin/sh\ntouch ${join(marks, `hook-${h}`)}\n`, { mode: 0o755 });
      }
      writeFileSync(join(out.dir, 'included.gitconfig'), `[core]\n  fsmonitor = ${touch('included')}\n`);
      git(p.dir, 'init', '-q');
      git(p.dir, 'add', '-A');
      git(p.dir, 'commit', '-qm', 'base');
      appendFileSync(join(p.dir, '.git', 'config'), HOSTILE_CONFIG);
      const r = await cli(['eval', 'cases.jsonl', '--compare', 'HEAD', '--json', '--no-examples'], { cwd: p.dir });
      expect(readdirSync(marks)).toEqual([]);
      expect(r.code).toBe(0);
      expect(r.json.compare).toBeDefined();
      expect(expected('git-config-programs', 'bwrap')).toBe('blocked');
    } finally {
      p.cleanup();
    }
  }, 60_000);

  it('an embedded bare repository as the registry folder is not used', async () => {
    const p = project({
      'my_tools/__init__.py': '',
      'my_tools/t.py': 'def f(x=""):\n    return 1\n',
      'tool_registry/t.yaml': contract('t', 'python_function', '{ module: my_tools.t, function: f }'),
      'cases.jsonl': '{"query": "a hostile tool used by the security tests", "relevant": ["t"]}\n',
    });
    try {
      // The registry folder itself looks like a bare repository whose config names programs.
      const reg = join(p.dir, 'tool_registry');
      git(reg, 'init', '-q', '--bare', '.');
      appendFileSync(join(reg, 'config'), HOSTILE_CONFIG);
      const r = await cli(['eval', 'cases.jsonl', '--compare', 'HEAD', '--json', '--no-examples'], { cwd: p.dir });
      expect(readdirSync(marks)).toEqual([]);
      expect(r.code).toBe(2);
      expect(r.errorJson.error.code).toBe('invalid_compare');
      expect(existsSync(join(marks, 'fsmonitor'))).toBe(false);
    } finally {
      p.cleanup();
    }
  }, 60_000);
});
