// Registry sizes that used to crash `validate` or make it deaf to SIGTERM (issue 9, item 11).
import { spawn } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { procStat } from '../../src/util/proc.js';
import { BIN, cli, tempProject } from '../helpers.js';

let cleanup: (() => void) | undefined;
afterEach(() => cleanup?.());

/** `n` contracts whose descriptions are all alike (the worst case for description-similar). */
function similarRegistry(n: number): string {
  const p = tempProject();
  cleanup = p.cleanup;
  const reg = join(p.dir, 'tool_registry');
  for (let g = 0; g * 1000 < n; g++) mkdirSync(join(reg, `g${g}`), { recursive: true });
  for (let i = 0; i < n; i++) {
    writeFileSync(
      join(reg, `g${Math.floor(i / 1000)}`, `t${i}.yaml`),
      `id: tool_${i}\nname: Weather ${i}\ndescription: Look up the current weather and forecast for a city, item ${i % 3}. Use when the user asks about the weather.\n` +
        `schema: {type: object, properties: {city: {type: string, description: The city.}}, required: [city]}\n` +
        `loader: command\nloader_config: {argv: [echo, '{{city}}']}\n`,
    );
  }
  return p.dir;
}

describe('validate at scale', () => {
  it('reports 5,000 alike descriptions once per tool instead of crashing', async () => {
    const dir = similarRegistry(5000);
    const r = await cli(['validate', '--json', '--no-routing'], { cwd: dir });
    expect(r.code).toBe(0); // warnings only
    const sim = (r.json.diagnostics as { rule: string; file: string }[]).filter(
      (d) => d.rule === 'description-similar',
    );
    // Every tool but the first is alike to an earlier one; each is reported once.
    expect(sim).toHaveLength(4999);
    expect(new Set(sim.map((d) => d.file)).size).toBe(4999);
  }, 120_000);

  it('exits promptly with 130 on SIGTERM in the middle of a long validate', async () => {
    const dir = similarRegistry(8000);
    const child = spawn(process.execPath, [BIN, 'validate', '--json', '--no-routing'], {
      cwd: dir,
      env: { PATH: process.env.PATH, HOME: process.env.HOME },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    // Busy for sure: wait until it has used 0.5 s of CPU (start-up and its signal handlers take far
    // less; the whole validate of 8,000 files takes about 2 s of CPU). CPU time, not wall time, so a
    // fast idle machine cannot finish before the signal and a loaded one cannot be caught in start-up.
    const cpuMs = () => {
      const f = procStat(child.pid!);
      return f ? ((Number(f[11]) + Number(f[12])) * 1000) / 100 : Infinity; // utime + stime, 100 ticks/s
    };
    while (cpuMs() < 500) await new Promise((r) => setTimeout(r, 20));
    const sent = Date.now();
    child.kill('SIGTERM');
    const code = await new Promise<number | null>((r) => child.on('exit', (c) => r(c)));
    expect(code).toBe(130);
    expect(Date.now() - sent).toBeLessThan(5000);
    expect(stderr).toContain('cancelled');
  }, 120_000);
});
