// `eval --compare` (src/select/compare.ts) on hand-made evaluations: which queries changed, the
// verdict, and the contract changes named as causes; and its two bases, a saved `eval --json` file
// (readSavedEval) and the registry at a git ref (registryAtRef), called directly so that each
// failure's error code, exit code and clean-up are pinned.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Project, ToolboxConfig } from '../../src/config.js';
import { ExitCode, ToolboxError } from '../../src/errors.js';
import {
  compareRuns,
  readSavedEval,
  registryAtRef,
  toolChange,
  toolPrints,
  type EvalQuery,
} from '../../src/select/compare.js';
import type { ToolContract } from '../../src/contract/types.js';

const contract = (id: string, extra: Record<string, unknown> = {}) =>
  ({ id, name: id, description: `${id} tool`, loader: 'command', ...extra }) as unknown as ToolContract;
const q = (
  line: number,
  query: string,
  relevant: string[],
  ranked: string[],
  source: EvalQuery['source'] = 'cases',
) => ({
  line,
  query,
  relevant,
  ranked,
  source,
});

describe('toolPrints and toolChange', () => {
  it('fingerprint each field selection reads, and name what changed, was added or removed', () => {
    const base = toolPrints([contract('a'), contract('b', { tags: ['x'] }), contract('c')]);
    expect(Object.keys(base.a!)).toEqual(['name', 'description', 'schema', 'examples', 'tags', 'provider']);
    expect(base.a!.description).toMatch(/^[0-9a-f]{12}$/);
    expect(base.a!.tags).toBe(base.c!.tags); // both absent
    expect(base.a!.description).not.toBe(base.c!.description);
    const now = toolPrints([
      contract('a', { description: 'better words', tags: ['y'] }),
      contract('b', { tags: ['x'], loader_config: { argv: ['other'] } }), // not a field selection reads
      contract('d'),
    ]);
    expect(toolChange(base, now, 'a')).toBe('description, tags changed');
    expect(toolChange(base, now, 'b')).toBeUndefined();
    expect(toolChange(base, now, 'c')).toBe('removed');
    expect(toolChange(base, now, 'd')).toBe('added');
    expect(toolChange(base, now, 'zzz')).toBeUndefined();
    for (const f of ['name', 'schema', 'examples', 'provider']) {
      const changed = toolPrints([contract('a', { [f]: f === 'schema' ? { type: 'object' } : ['v'] })]);
      expect(toolChange(toolPrints([contract('a')]), changed, 'a')).toBe(`${f} changed`);
    }
  });
});

describe('compareRuns', () => {
  const tools = toolPrints(['w', 'x', 'm', 'c', 'a', 'b'].map((id) => contract(id)));
  const nowTools = toolPrints([
    ...['x', 'm', 'c', 'a', 'b'].map((id) => contract(id)),
    contract('w', { description: 'weather, better' }),
    contract('n'),
  ]);

  it('lists each query whose first tool or R@5 changed, with its verdict and causes', () => {
    const base = [
      q(1, 'weather paris', ['w'], ['w', 'x']),
      q(2, 'send mail', ['m'], ['x']),
      q(3, 'convert', ['c'], ['a', 'b', 'c']),
      q(4, 'same', ['a'], ['a', 'b']),
      q(6, 'two wanted', ['b', 'a'], ['a', 'b']),
      q(7, 'weather paris', ['w'], ['w'], 'example'),
      q(9, 'gone', ['w'], ['w']),
    ];
    const now = [
      q(1, 'weather paris', ['w'], ['x', 'w']), // first tool lost, R@5 kept: worse
      q(2, 'send mail', ['m'], ['m', 'n']), // found: better
      q(3, 'convert', ['c'], ['b', 'a', 'c']), // first tool changed, neither relevant: moved
      q(4, 'same', ['a'], ['a', 'b']), // unchanged: not listed
      q(5, 'new query', ['a'], ['b']), // not in the base: not listed
      q(6, 'two wanted', ['a', 'b'], ['a', 'x', 'm', 'c', 'w', 'b']), // same first tool, R@5 1 → 0.5: worse
      q(7, 'weather paris', ['w'], ['w']), // the example: unchanged
      q(9, 'gone', ['w'], []), // nothing ranked any more: worse
    ];
    const changes = compareRuns({ results: base, tools }, { results: now, tools: nowTools });
    expect(changes.map((c) => [c.line, c.verdict, c.before, c.after])).toEqual([
      [1, 'worse', { top1: 'w', r5: 1 }, { top1: 'x', r5: 1 }],
      [2, 'better', { top1: 'x', r5: 0 }, { top1: 'm', r5: 1 }],
      [3, 'moved', { top1: 'a', r5: 1 }, { top1: 'b', r5: 1 }],
      [6, 'worse', { top1: 'a', r5: 1 }, { top1: 'a', r5: 0.5 }],
      [9, 'worse', { top1: 'w', r5: 1 }, { top1: null, r5: 0 }],
    ]);
    expect(changes[0]).toEqual({
      line: 1,
      query: 'weather paris',
      source: 'cases',
      relevant: ['w'],
      before: { top1: 'w', r5: 1 },
      after: { top1: 'x', r5: 1 },
      verdict: 'worse',
      causes: ['w: description changed'],
    });
    // causes: the wanted tools, the base top 5 and the new top 5
    expect(changes[1]!.causes).toEqual(['n: added']);
    expect(changes[2]!.causes).toEqual([]);
    expect(changes[3]!.causes).toEqual(['w: description changed']);
  });

  it('counts only the top 5 for R@5, and a tool that left the registry as a cause', () => {
    const base = [q(1, 'deep', ['b'], ['a', 'x', 'm', 'c', 'w', 'b'])];
    const now = [q(1, 'deep', ['b'], ['a', 'b'])];
    const [c] = compareRuns({ results: base, tools }, { results: now, tools: toolPrints([contract('a')]) });
    expect(c).toMatchObject({ verdict: 'better', before: { top1: 'a', r5: 0 }, after: { top1: 'a', r5: 1 } });
    expect(c!.causes).toEqual(['b: removed', 'x: removed', 'm: removed', 'c: removed', 'w: removed']);
    const wrongFirst = compareRuns(
      { results: [q(1, 'r', ['b'], ['a', 'b'])], tools },
      { results: [q(1, 'r', ['b'], ['b', 'a'])], tools },
    );
    expect(wrongFirst.map((x) => x.verdict)).toEqual(['better']);
    const r5Down = compareRuns(
      { results: [q(1, 'r', ['a', 'b'], ['a', 'b'])], tools },
      { results: [q(1, 'r', ['a', 'b'], ['b'])], tools },
    );
    expect(r5Down.map((x) => x.verdict)).toEqual(['worse']);
  });

  it('names as causes only tools in either top 5 or wanted (not the 6th)', () => {
    const base = [q(1, 's', ['a'], ['a', 'b', 'c', 'm', 'x', 'w'])]; // w changed, 6th
    const now = [q(1, 's', ['a'], ['b', 'a', 'c', 'm', 'x', 'n'])]; // n added, 6th
    const changes = compareRuns({ results: base, tools }, { results: now, tools: nowTools });
    expect(changes).toEqual([
      {
        line: 1,
        query: 's',
        source: 'cases',
        relevant: ['a'],
        before: { top1: 'a', r5: 1 },
        after: { top1: 'b', r5: 1 },
        verdict: 'worse',
        causes: [],
      },
    ]);
  });

  it('matches a query only with the same wanted tools: another set, or ids that join alike, is a new query', () => {
    const differentWanted = compareRuns(
      { results: [q(1, 'r', ['a'], ['a'])], tools },
      { results: [q(1, 'r', ['b'], ['x'])], tools },
    );
    expect(differentWanted).toEqual([]);
    const joinAlike = compareRuns(
      { results: [q(1, 'r', ['a', 'b'], ['a', 'b'])], tools },
      { results: [q(1, 'r', ['ab'], ['x'])], tools },
    );
    expect(joinAlike).toEqual([]);
    const otherSource = compareRuns(
      { results: [q(1, 'r', ['a'], ['a'])], tools },
      { results: [q(1, 'r', ['a'], ['x'], 'example')], tools },
    );
    expect(otherSource).toEqual([]);
  });
});

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

async function thrownAsync(f: () => Promise<unknown>): Promise<ToolboxError> {
  try {
    await f();
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

  it('checks the registry folder out as it was at the ref, in a temp folder that cleanup removes', async () => {
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

    const at = await registryAtRef(p, 'HEAD');
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

  it('checks out a registry larger than a child process’s default output buffer (1 MiB)', async () => {
    const reg = join(dir, 'big', 'tool_registry');
    mkdirSync(reg, { recursive: true });
    const body = `id: big\ndescription: ${'word '.repeat(300_000)}\n`; // 1.5 MB
    writeFileSync(join(reg, 'big.yaml'), body);
    git(join(dir, 'big'), 'init', '-q');
    git(join(dir, 'big'), 'add', '-A');
    git(join(dir, 'big'), 'commit', '-qm', 'base');
    const at = await registryAtRef(project(join(dir, 'big'), reg), 'HEAD');
    expect(readFileSync(join(at.project.registryDir, 'big.yaml'), 'utf8')).toBe(body);
    at.cleanup();
  });

  it('takes the whole tree when the registry folder is the repository itself', async () => {
    const reg = join(dir, 'reg');
    mkdirSync(reg);
    writeFileSync(join(reg, 'a.yaml'), 'id: a\n');
    git(reg, 'init', '-q');
    git(reg, 'add', '-A');
    git(reg, 'commit', '-qm', 'base');
    git(reg, 'tag', 'v1');
    rmSync(join(reg, 'a.yaml'));
    const at = await registryAtRef(project(dir, reg), 'v1');
    const top = join(tmp, leftInTmp()[0]!);
    expect(at.project.registryDir).toBe(top);
    expect(readFileSync(join(top, 'a.yaml'), 'utf8')).toBe('id: a\n');
    at.cleanup();
    expect(leftInTmp()).toEqual([]);
  });

  it('fails with invalid_compare (exit 2), a reason per case and nothing left behind', async () => {
    const loose = join(dir, 'loose');
    mkdirSync(loose);
    const notGit = await thrownAsync(() => registryAtRef(project(dir, loose), 'HEAD'));
    // outside git, any ref fails for that same reason (git is not asked about the ref)
    const notGitOther = await thrownAsync(() => registryAtRef(project(dir, loose), 'no-such-ref'));
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
    const noRef = await thrownAsync(() => registryAtRef(p, 'no-such-ref'));
    const tree = git(repo, 'rev-parse', 'HEAD^{tree}').trim(); // an object, but not a commit
    const notCommit = await thrownAsync(() => registryAtRef(p, tree));
    const notInRef = await thrownAsync(() => registryAtRef(p, 'HEAD~1'));

    const all = [notGit, noRef, notCommit, notInRef];
    for (const e of all) {
      expect([e.code, e.exitCode]).toEqual(['invalid_compare', ExitCode.usage]);
      expect(e.hint).toContain('git ref');
      expect(e.message).toMatch(/^--compare \S+: \S/); // the ref, then a reason
    }
    expect(notGit.message).toContain('--compare HEAD:');
    expect(noRef.message).toContain('--compare no-such-ref:');
    expect(notInRef.message).toContain('--compare HEAD~1:');
    expect(notInRef.message).toContain('tool_registry');
    expect(noRef.message).toBe(notCommit.message.replace(tree, 'no-such-ref'));
    expect(new Set([notGit, noRef, notInRef].map((e) => e.message.split(': ')[1])).size).toBe(3);
    expect(leftInTmp()).toEqual([]);
    // and the ref that has it works
    const at = await registryAtRef(p, 'HEAD');
    expect(basename(dirname(at.project.registryDir))).toMatch(/^toolbox-compare-/);
    at.cleanup();
  });
});
