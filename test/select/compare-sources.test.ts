// The two bases `eval --compare` reads (src/select/compare.ts): a saved `eval --json` file
// (readSavedEval) and the registry as it was at a git ref (registryAtRef), called directly so that
// each failure's error code, exit code and clean-up are pinned.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Project, ToolboxConfig } from '../../src/config.js';
import { ExitCode, ToolboxError } from '../../src/errors.js';
import { readSavedEval, registryAtRef } from '../../src/select/compare.js';

let dir: string;
let tmp: string;
const savedTmp = process.env.TMPDIR;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'toolbox-compare-test-'));
  // registryAtRef's checkouts go to os.tmpdir(): a folder of this test's own, to see what is left there.
  tmp = join(dir, 'tmp');
  mkdirSync(tmp);
  process.env.TMPDIR = tmp;
});
afterEach(() => {
  if (savedTmp === undefined) delete process.env.TMPDIR;
  else process.env.TMPDIR = savedTmp;
  rmSync(dir, { recursive: true, force: true });
});

/** The error `f` throws (it must throw a ToolboxError). */
function thrown(f: () => unknown): ToolboxError {
  try {
    f();
  } catch (e) {
    expect(e).toBeInstanceOf(ToolboxError);
    return e as ToolboxError;
  }
  throw new Error('did not throw');
}

describe('readSavedEval', () => {
  const results = [{ line: 1, query: 'q', relevant: ['a'], ranked: ['a', 'b'], source: 'cases' }];
  const tools = { a: { name: 'n1', description: 'd1', schema: 's', examples: 'e', tags: 't', provider: 'p' } };

  it('reads results, tools and metrics of a saved result, and nothing else', () => {
    const file = join(dir, 'before.json');
    writeFileSync(file, JSON.stringify({ results, tools, metrics: { 'r@1': 0.5 }, queries: 1, ranker: 'bm25' }));
    expect(readSavedEval(file)).toEqual({ results, tools, metrics: { 'r@1': 0.5 } });
    writeFileSync(file, JSON.stringify({ results: [], tools: {} }));
    expect(readSavedEval(file)).toEqual({ results: [], tools: {}, metrics: undefined });
  });

  it('is undefined for a path that is no file (a git ref, then)', () => {
    expect(readSavedEval(join(dir, 'HEAD'))).toBeUndefined();
  });

  it('refuses a file that is not JSON, or JSON without results and tools: invalid_compare, exit 2', () => {
    const file = join(dir, 'x.json');
    const errors = [
      '{"results": [',
      JSON.stringify({ tools }),
      JSON.stringify({ results }),
      JSON.stringify({ results: {}, tools }),
    ].map((text) => {
      writeFileSync(file, text);
      const e = thrown(() => readSavedEval(file));
      expect([e.code, e.exitCode]).toEqual(['invalid_compare', ExitCode.usage]);
      expect(e.message).toContain(file);
      expect(e.hint).toContain('--json');
      return e;
    });
    // Not JSON at all and JSON of the wrong shape are told apart (the parser's reason is kept).
    expect(errors[0]!.message).toContain(
      (() => {
        try {
          JSON.parse('{"results": [');
        } catch (e) {
          return (e as Error).message;
        }
      })(),
    );
    expect(errors[0]!.message).not.toBe(errors[1]!.message);
    expect(new Set(errors.slice(1).map((e) => e.message)).size).toBe(1);
    expect(errors[0]!.hint).not.toBe(errors[1]!.hint);
  });
});

describe('registryAtRef', () => {
  const git = (cwd: string, ...a: string[]) =>
    execFileSync('git', ['-c', 'user.email=t@t', '-c', 'user.name=t', ...a], { cwd, stdio: 'pipe', encoding: 'utf8' });
  const project = (root: string, registryDir: string): Project => ({
    root,
    registryDir,
    stateDir: join(root, '.toolbox'),
    config: {} as ToolboxConfig,
  });
  const leftInTmp = () => readdirSync(tmp);

  it('checks the registry folder out as it was at the ref, in a temp folder that cleanup removes', () => {
    const repo = join(dir, 'repo');
    const reg = join(repo, 'sub', 'tool_registry');
    mkdirSync(reg, { recursive: true });
    writeFileSync(join(reg, 'a.yaml'), 'id: a # committed\n');
    writeFileSync(join(repo, 'outside.txt'), 'not the registry\n');
    git(repo, 'init', '-q');
    git(repo, 'add', '-A');
    git(repo, 'commit', '-qm', 'base');
    writeFileSync(join(reg, 'a.yaml'), 'id: a # edited\n');
    writeFileSync(join(reg, 'b.yaml'), 'id: b\n');
    const p = { ...project(join(repo, 'sub'), reg), configFile: join(repo, 'sub', 'toolbox.config.yaml') };

    const at = registryAtRef(p, 'HEAD');
    const [co] = leftInTmp();
    expect(leftInTmp()).toHaveLength(1);
    expect(co).toMatch(/^toolbox-compare-/);
    const top = join(tmp, co!);
    expect(at.project).toEqual({
      ...p,
      registryDir: join(top, 'sub', 'tool_registry'),
      stateDir: join(top, '.toolbox'),
      root: p.root,
    });
    expect(readdirSync(at.project.registryDir)).toEqual(['a.yaml']);
    expect(readFileSync(join(at.project.registryDir, 'a.yaml'), 'utf8')).toBe('id: a # committed\n');
    expect(readdirSync(top)).toEqual(['sub']); // only the registry folder, not the rest of the repository
    at.cleanup();
    expect(existsSync(top)).toBe(false);
    expect(leftInTmp()).toEqual([]);
    at.cleanup(); // a second time is harmless
  });

  it('checks out a registry larger than a child process’s default output buffer (1 MiB)', () => {
    const reg = join(dir, 'big', 'tool_registry');
    mkdirSync(reg, { recursive: true });
    const body = `id: big\ndescription: ${'word '.repeat(300_000)}\n`; // 1.5 MB
    writeFileSync(join(reg, 'big.yaml'), body);
    git(join(dir, 'big'), 'init', '-q');
    git(join(dir, 'big'), 'add', '-A');
    git(join(dir, 'big'), 'commit', '-qm', 'base');
    const at = registryAtRef(project(join(dir, 'big'), reg), 'HEAD');
    expect(readFileSync(join(at.project.registryDir, 'big.yaml'), 'utf8')).toBe(body);
    at.cleanup();
  });

  it('takes the whole tree when the registry folder is the repository itself', () => {
    const reg = join(dir, 'reg');
    mkdirSync(reg);
    writeFileSync(join(reg, 'a.yaml'), 'id: a\n');
    git(reg, 'init', '-q');
    git(reg, 'add', '-A');
    git(reg, 'commit', '-qm', 'base');
    git(reg, 'tag', 'v1');
    rmSync(join(reg, 'a.yaml'));
    const at = registryAtRef(project(dir, reg), 'v1');
    const top = join(tmp, leftInTmp()[0]!);
    expect(at.project.registryDir).toBe(top);
    expect(readFileSync(join(top, 'a.yaml'), 'utf8')).toBe('id: a\n');
    at.cleanup();
    expect(leftInTmp()).toEqual([]);
  });

  it('fails with invalid_compare (exit 2), a reason per case and nothing left behind', () => {
    const loose = join(dir, 'loose');
    mkdirSync(loose);
    const notGit = thrown(() => registryAtRef(project(dir, loose), 'HEAD'));
    // outside git, any ref fails for that same reason (git is not asked about the ref)
    const notGitOther = thrown(() => registryAtRef(project(dir, loose), 'no-such-ref'));
    expect(notGitOther.message.split(': ')[1]).toBe(notGit.message.split(': ')[1]);

    const repo = join(dir, 'repo');
    mkdirSync(repo);
    writeFileSync(join(repo, 'README'), 'first commit has no registry\n');
    git(repo, 'init', '-q');
    git(repo, 'add', '-A');
    git(repo, 'commit', '-qm', 'one');
    const reg = join(repo, 'tool_registry');
    mkdirSync(reg);
    writeFileSync(join(reg, 'a.yaml'), 'id: a\n');
    git(repo, 'add', '-A');
    git(repo, 'commit', '-qm', 'two');
    const p = project(repo, reg);
    const noRef = thrown(() => registryAtRef(p, 'no-such-ref'));
    const tree = git(repo, 'rev-parse', 'HEAD^{tree}').trim(); // an object, but not a commit
    const notCommit = thrown(() => registryAtRef(p, tree));
    const notInRef = thrown(() => registryAtRef(p, 'HEAD~1'));

    const all = [notGit, noRef, notCommit, notInRef];
    for (const e of all) {
      expect([e.code, e.exitCode]).toEqual(['invalid_compare', ExitCode.usage]);
      expect(e.hint).toContain('git ref');
    }
    expect(notGit.message).toContain('--compare HEAD:');
    expect(noRef.message).toContain('--compare no-such-ref:');
    expect(notInRef.message).toContain('--compare HEAD~1:');
    expect(notInRef.message).toContain('tool_registry');
    expect(noRef.message).toBe(notCommit.message.replace(tree, 'no-such-ref'));
    expect(new Set([notGit, noRef, notInRef].map((e) => e.message.split(': ')[1])).size).toBe(3);
    expect(leftInTmp()).toEqual([]);
    // and the ref that has it works
    const at = registryAtRef(p, 'HEAD');
    expect(basename(dirname(at.project.registryDir))).toMatch(/^toolbox-compare-/);
    at.cleanup();
  });
});
