// What `init` and `new` generate runs as generated, through the real binary and `toolbox run`.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawnCli, tempProject } from '../helpers.js';

describe('scaffolded tools run as generated', () => {
  const p = tempProject();
  beforeAll(async () => {
    expect((await spawnCli(['init', '--yes'], { cwd: p.dir })).code).toBe(0);
    expect(
      (
        await spawnCli(
          [
            'new',
            'count_js',
            '--loader',
            'node_module',
            '--description',
            '统计一段文字的字数、字符数和行数。当用户想知道一段中文有多长时使用。',
          ],
          { cwd: p.dir },
        )
      ).code,
    ).toBe(0);
    const utc =
      'Convert a date and time such as "next friday 9:00" to UTC in ISO 8601. Use it when the user needs a UTC time.';
    expect((await spawnCli(['new', 'to_utc', '--loader', 'command', '--description', utc], { cwd: p.dir })).code).toBe(
      0,
    );
  });
  afterAll(() => p.cleanup());

  it("python_function (init's example)", async () => {
    const r = await spawnCli(['run', 'word_count', '--text', 'hello big world', '--json'], { cwd: p.dir });
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.stringify(JSON.parse(r.stdout))).toContain('"words":3');
  });

  it('node_module', async () => {
    const r = await spawnCli(['run', 'count_js', '--text', 'hello big world', '--json'], { cwd: p.dir });
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.stringify(JSON.parse(r.stdout))).toContain('"characters":15');
  });

  it('command', async () => {
    const r = await spawnCli(['run', 'to_utc', '--when', '2024-05-01 14:00 +0800'], { cwd: p.dir });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout.trim()).toBe('2024-05-01T06:00:00Z');
  });

  it('and the project validates clean', async () => {
    const r = await spawnCli(['validate', '--fail-on', 'warning', '--json'], { cwd: p.dir });
    expect(r.code, r.stdout).toBe(0);
    expect(JSON.parse(r.stdout).summary).toMatchObject({ files: 3, tools: 3, errors: 0, warnings: 0 });
  });
});
