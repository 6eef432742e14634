// `toolbox init` on a real terminal (a pseudo-terminal driven by a small Python program):
// the questions, and Ctrl+C before anything is written.
import { afterEach, describe, expect, it } from 'vitest';
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { BIN, tempProject } from '../helpers.js';

let cleanups: (() => void)[] = [];
afterEach(() => {
  cleanups.forEach((c) => c());
  cleanups = [];
});

function drive(cwd: string, steps: [string, string][]): number {
  const out = execFileSync(
    'python3',
    [join(import.meta.dirname, 'pty-driver.py'), JSON.stringify(steps), process.execPath, BIN, 'init'],
    {
      cwd,
      encoding: 'utf8',
      env: { PATH: process.env.PATH, HOME: process.env.HOME, TERM: 'xterm' },
      timeout: 60_000,
    },
  );
  return Number(out.trim().split('\n').pop());
}

describe('toolbox init on a terminal', () => {
  it('asks for the registry folder, the loader and the first tool, then writes', () => {
    const p = tempProject();
    cleanups.push(p.cleanup);
    const code = drive(p.dir, [
      ['Registry folder', '\x15tools\r'],
      ['Loader', '\x1b[B\r'],
      ['Id of the first tool', '\x15hello\r'],
    ]);
    expect(code).toBe(0);
    expect(readdirSync(join(p.dir, 'tools'))).toEqual(['hello.yaml']);
    expect(existsSync(join(p.dir, 'my_tools', 'hello', 'hello.mjs'))).toBe(true);
  });

  it('Ctrl+C at a question exits 130 and leaves no file', () => {
    const p = tempProject();
    cleanups.push(p.cleanup);
    const code = drive(p.dir, [
      ['Registry folder', 'half'],
      ['half', '\x03'],
    ]);
    expect(code).toBe(130);
    expect(readdirSync(p.dir)).toEqual([]);
  });
});
