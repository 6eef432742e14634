// What `init` and `new` generate runs as generated, through the real binary and `toolbox run`: init's
// working example, and new's generic stubs (which validate flags until their TODOs are filled in).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readFileSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
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

  it("node_module (new's stub: it runs, and says it is a stub)", async () => {
    const r = await spawnCli(['run', 'count_js', '--input', 'hello big world', '--json'], { cwd: p.dir });
    expect(r.code, r.stderr).toBe(4);
    expect(JSON.parse(r.stderr).error.message).toMatch(
      /count_js is a stub: write its code in my_tools\/count_js\/count_js\.mjs/,
    );
  });

  it("command (new's stub: echo)", async () => {
    const r = await spawnCli(['run', 'to_utc', '--input', '2024-05-01 14:00 +0800'], { cwd: p.dir });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout.trim()).toBe('2024-05-01 14:00 +0800');
  });

  it("validate flags new's TODOs, and only those; filled in, the project validates clean", async () => {
    const r = await spawnCli(['validate', '--fail-on', 'warning', '--json'], { cwd: p.dir });
    expect(r.code, r.stdout).toBe(1);
    const ds = JSON.parse(r.stdout).diagnostics as { file: string; rule: string }[];
    expect(ds.map((d) => `${basename(d.file)} ${d.rule}`).sort()).toEqual([
      'count_js.yaml description-placeholder',
      'to_utc.yaml description-placeholder',
    ]);
    for (const [f, text] of [
      ['count_js.yaml', '要统计的一段文字，例如用户贴上的一段话。'],
      ['to_utc.yaml', 'A date and time in any form GNU date understands, e.g. "next friday 9:00".'],
    ] as const) {
      const file = join(p.dir, 'tool_registry', f);
      writeFileSync(file, readFileSync(file, 'utf8').replace(/"TODO:[^"]*"/, JSON.stringify(text)));
    }
    const clean = await spawnCli(['validate', '--fail-on', 'warning', '--json'], { cwd: p.dir });
    expect(clean.code, clean.stdout).toBe(0);
    expect(JSON.parse(clean.stdout).summary).toMatchObject({ files: 3, tools: 3, errors: 0, warnings: 0 });
  });
});
