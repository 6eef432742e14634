// src/launch/code-cache.ts on Node 20: the bundled CLI (dist/cli.cjs) is compiled with a V8 code cache kept in
// the user's cache folder. The cache is written once, reused while the bundle is the same file,
// and anything V8 rejects, a key for another file, or a folder others can write is never used.
import { chmodSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { REFERENCE_CONTRACT, spawnCli, tempProject } from '../helpers.js';

// Node >= 22.1 uses its own module.enableCompileCache instead (nothing of this applies there).
const node20 = !('enableCompileCache' in (await import('node:module')).default);

let p: ReturnType<typeof tempProject>;
beforeEach(() => {
  p = tempProject({ 'tool_registry/w.yaml': REFERENCE_CONTRACT, 'cache/.keep': '' });
});
afterEach(() => p.cleanup());

const cacheHome = () => join(p.dir, 'cache');
const v8Dir = () => join(cacheHome(), 'toolbox', 'v8');
const select = async () => {
  const r = await spawnCli(['select', 'weather in Beijing', '--json'], {
    cwd: p.dir,
    env: { XDG_CACHE_HOME: cacheHome() },
  });
  expect(r.code, r.stderr).toBe(0);
  expect((JSON.parse(r.stdout) as { results: { id: string }[] }).results[0]!.id).toBe('query_weather');
};
const entry = () => {
  const files = readdirSync(v8Dir());
  expect(files).toHaveLength(1);
  return join(v8Dir(), files[0]!);
};

describe.runIf(node20)('the code cache of the bundled CLI', () => {
  it('is written once (mode 0600, for this bundle file) and then reused as it is', async () => {
    await select();
    const file = entry();
    const first = statSync(file);
    expect(first.mode & 0o077).toBe(0);
    const key = readFileSync(file, 'utf8').split('\n', 1)[0]!;
    expect(key).toContain(process.version);
    await select();
    const again = statSync(file);
    expect([again.ino, again.mtimeMs]).toEqual([first.ino, first.mtimeMs]);
    // Other commands compile other code: their own cache, and select's stays as it was.
    const list = await spawnCli(['list', '--json'], { cwd: p.dir, env: { XDG_CACHE_HOME: cacheHome() } });
    expect(list.code, list.stderr).toBe(0);
    expect(
      readdirSync(v8Dir())
        .map((f) => f.replace(/^cli-[0-9a-f]+-/, ''))
        .sort(),
    ).toEqual(['other.bin', 'select.bin']);
    expect(statSync(file).ino).toBe(first.ino);
  });

  it('replaces a cache V8 rejects and one made for another file, and the command still works', async () => {
    await select();
    const file = entry();
    const key = readFileSync(file, 'utf8').split('\n', 1)[0]!;
    writeFileSync(file, Buffer.concat([Buffer.from(key + '\n'), Buffer.alloc(4096, 7)]), { mode: 0o600 });
    const planted = statSync(file).ino;
    await select();
    expect(statSync(file).ino).not.toBe(planted);
    expect(readFileSync(file).length).toBeGreaterThan(4096 + key.length + 1);

    writeFileSync(file, 'v1 some other bundle\n' + 'x'.repeat(100), { mode: 0o600 });
    const other = statSync(file).ino;
    await select();
    expect(statSync(file).ino).not.toBe(other);
    expect(readFileSync(file, 'utf8').split('\n', 1)[0]).toBe(key);
  });

  it('keeps no cache in a folder that others can write, and ignores a cache file others can write', async () => {
    mkdirSync(v8Dir(), { recursive: true });
    chmodSync(v8Dir(), 0o777);
    await select();
    expect(readdirSync(v8Dir())).toEqual([]);

    chmodSync(v8Dir(), 0o700);
    await select();
    const file = entry();
    chmodSync(file, 0o666);
    const before = statSync(file).ino;
    await select();
    expect(statSync(file).ino).not.toBe(before); // not trusted: compiled afresh and replaced
    expect(statSync(file).mode & 0o077).toBe(0);
  });
});
