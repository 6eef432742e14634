// Issue 34 item 3: credentials at any depth inside a folder the sandbox shows a tool stay hidden.
// A Python tool whose package folder holds a nested `.env.local`, a vendored repository's
// `.git/config`, an `.npmrc`, an `.aws/` folder and a link to the `.env.local` reads each of them.
import { afterAll, describe, expect, it } from 'vitest';
import { mkdirSync, readFileSync, realpathSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { grantInTests } from '../helpers.js';
import { MAX_ENTRIES, secretMasks } from '../../src/sandbox/mask.js';
import { CASES, expected } from './cases.js';
import { contract, project, runOn, scratch, tiers } from './helpers.js';

const SECRET = 'NESTED_SECRET_9231';
const READS = [
  'web/.env.local',
  'web/.ENV',
  'vendor/lib/.git/config',
  '.npmrc',
  'cfg/.aws/credentials',
  'sub/.git',
  'alias',
  'web/page.txt',
];
const p = project({
  'apps/__init__.py': '',
  'apps/web/.env.local': `API_KEY=${SECRET}\n`,
  'apps/web/.ENV': `API_KEY=${SECRET}\n`,
  'apps/web/page.txt': 'an ordinary file',
  'apps/vendor/lib/.git/config': `[remote "origin"]\n\turl = https://u:${SECRET}@example.com/x.git\n`,
  'apps/.npmrc': `//registry.npmjs.org/:_authToken=${SECRET}\n`,
  'apps/cfg/.aws/credentials': `aws_secret_access_key = ${SECRET}\n`,
  // A git submodule or worktree: its `.git` is a file naming the repository (covered as a file).
  'apps/sub/.git': `gitdir: ../../.git/modules/sub ${SECRET}\n`,
  'apps/leak.py': `import os
HERE = os.path.dirname(os.path.abspath(__file__))
def leak():
    out = {}
    for rel in ${JSON.stringify(READS)}:
        try:
            out[rel] = open(os.path.join(HERE, rel)).read()
        except OSError as e:
            out[rel] = type(e).__name__
    out["listing .git"] = sorted(os.listdir(os.path.join(HERE, "vendor/lib/.git")))
    return out
`,
  'tool_registry/nested.yaml': contract('nested', 'python_function', '{ module: apps.leak, function: leak }'),
  // The same tool asking for the nested file by its exact path: bound only with the user's grant.
  'tool_registry/nested_granted.yaml': contract(
    'nested_granted',
    'python_function',
    '{ module: apps.leak, function: leak }',
    'sandbox: { paths: [apps/web/.env.local] }',
  ),
});
symlinkSync('web/.env.local', join(p.dir, 'apps', 'alias'));
afterAll(() => p.cleanup());

describe.each(tiers)('issue 34 item 3 on tier %s: secrets at any depth inside a shown folder', (tier) => {
  it('nested .env*, .git/, .npmrc, .aws/ and a link to one read as empty; ordinary files as they are', async () => {
    const r = await runOn(tier, p.dir, ['run', 'nested', '--json']);
    expect(r.errorJson?.error).toBeUndefined();
    const got = r.json.result as Record<string, unknown>;
    expect(got['web/page.txt']).toBe('an ordinary file');
    if (expected('nested-secrets', tier) === 'blocked') {
      expect(JSON.stringify(got)).not.toContain(SECRET);
      // Covered by an empty file (readable, empty), a folder by an empty read-only one.
      expect(got['web/.env.local']).toBe('');
      expect(got['web/.ENV']).toBe('');
      expect(got['.npmrc']).toBe('');
      expect(got['sub/.git']).toBe('');
      expect(got['alias']).toBe('');
      expect(got['vendor/lib/.git/config']).toBe('FileNotFoundError');
      expect(got['cfg/.aws/credentials']).toBe('FileNotFoundError');
      expect(got['listing .git']).toEqual([]);
    } else expect(JSON.stringify(got)).toContain(SECRET);
  });
});

describe('issue 34 item 3: what the user grants by its exact path, and what cannot be checked', () => {
  it.runIf(tiers.includes('bwrap'))(
    "the user's grant of that exact file shows it; the others stay covered",
    async () => {
      const refused = await runOn('bwrap', p.dir, ['run', 'nested_granted', '--json']);
      expect(refused.errorJson?.error.code).toBe('sandbox_path_denied');
      grantInTests(p.dir, { paths: [realpathSync(join(p.dir, 'apps', 'web', '.env.local'))] }, 'nested_granted');
      const r = await runOn('bwrap', p.dir, ['run', 'nested_granted', '--json']);
      expect(r.errorJson?.error).toBeUndefined();
      const got = r.json.result as Record<string, unknown>;
      expect(got['web/.env.local']).toContain(SECRET);
      expect(got['web/.ENV']).toBe('');
      expect(got['.npmrc']).toBe('');
    },
  );

  it('the lock never hashes them, and a changed secret is no drift', async () => {
    const lock = await runOn(tiers[0]!, p.dir, ['lock', '--json']);
    expect(lock.errorJson?.error).toBeUndefined();
    const text = readFileSync(join(p.dir, 'toolbox.lock'), 'utf8');
    expect(text).toContain('apps/web/page.txt');
    // No file entry (a path key with its hash) for any of them; a link's target and the contract's own
    // sandbox.paths name one, as text.
    const keys = [...text.matchAll(/^\s+(\S+):/gm)].map((m) => m[1]!);
    for (const name of ['.env.local', '.ENV', '.git', '.npmrc', '.aws'])
      expect(keys.filter((k) => k.includes(name))).toEqual([]);
    writeFileSync(join(p.dir, 'apps', 'web', '.env.local'), 'API_KEY=rotated\n');
    const locked = await runOn(tiers[0]!, p.dir, ['run', 'nested', '--locked', '--json']);
    expect(locked.errorJson?.error).toBeUndefined();
    expect(locked.code).toBe(0);
  });

  const big = scratch();
  afterAll(() => big.cleanup());
  it('a folder too large to check is refused, naming it; installed package trees are looked at one level deep', () => {
    expect(CASES['nested-secrets'].item).toBe('34.3');
    mkdirSync(join(big.dir, 'data', 'deep'), { recursive: true });
    for (let i = 0; i < 30; i++) writeFileSync(join(big.dir, 'data', 'deep', `f${i}`), '');
    writeFileSync(join(big.dir, 'data', 'deep', '.env'), SECRET);
    mkdirSync(join(big.dir, 'node_modules', 'pkg', 'sub'), { recursive: true });
    writeFileSync(join(big.dir, 'node_modules', '.npmrc'), SECRET);
    writeFileSync(join(big.dir, 'node_modules', 'pkg', 'sub', '.env'), SECRET);
    const masks = secretMasks([[big.dir, '/shown']], [], 1_000);
    expect(masks.map((m) => m.path).sort()).toEqual(['/shown/data/deep/.env', '/shown/node_modules/.npmrc']);
    let err: unknown;
    try {
      secretMasks([[big.dir, '/shown']], [], 20);
    } catch (e) {
      err = e;
    }
    expect((err as { code?: string }).code).toBe('sandbox_path_too_large');
    expect((err as Error).message).toContain('/shown');
    expect(MAX_ENTRIES).toBeGreaterThanOrEqual(10_000);
  });
});
