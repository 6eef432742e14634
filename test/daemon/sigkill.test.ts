// Hostile: the daemon is SIGKILLed while a sandboxed `run` is starting, ten times. bwrap sets its
// parent-death signal only after its own setup, so a sandbox caught starting used to outlive the
// daemon and run its tool to the end. The test makes that moment certain: it freezes the sandbox's
// first process (SIGSTOP) as soon as it exists, kills the daemon, then lets the sandbox go on
// (SIGCONT), as a scheduler on a loaded machine would. Nothing of the call may be left a few
// seconds later.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { ExitCode } from '../../src/errors.js';
import { BIN } from '../helpers.js';
import { marker, processesWith } from '../sandbox/helpers.js';
import { daemonProject } from './helpers.js';

const mark = marker();
const p = daemonProject(mark);
afterAll(() => {
  for (const x of processesWith(mark)) signal(x, 'SIGKILL');
  return p.cleanup();
}, 30_000);

const read = (f: string) => {
  try {
    return readFileSync(f, 'utf8');
  } catch {
    return '';
  }
};
const signal = (pid: number, sig: NodeJS.Signals) => {
  try {
    process.kill(pid, sig);
  } catch {
    /* exited meanwhile */
  }
};
const waitFor = async (cond: () => boolean, ms: number) => {
  for (let t = 0; t < ms && !cond(); t += 25) await new Promise((r) => setTimeout(r, 25));
  return cond();
};
const gone = (pid: number) => /^State:\s+[ZX]/m.test(read(`/proc/${pid}/status`)) || !read(`/proc/${pid}/status`);

/** The daemon's child that runs the call's sandbox (its command line holds the mark), as soon as it exists. */
function sandboxChild(daemon: number, until: number): number | undefined {
  while (Date.now() < until) {
    for (const c of read(`/proc/${daemon}/task/${daemon}/children`).split(' ').filter(Boolean)) {
      if (read(`/proc/${c}/cmdline`).includes(mark)) return Number(c);
    }
  }
  return undefined;
}

describe('daemon SIGKILLed while a sandbox starts', () => {
  it('leaves no process of the call behind, ten times over', async () => {
    const left: string[] = [];
    for (let i = 0; i < 10; i++) {
      const st = JSON.parse((await p.tb(['daemon', 'start', '--json', '--idle', '2m'])).stdout) as { pid: number };
      const client = spawn(process.execPath, [BIN, 'run', 'nap', '--json'], {
        cwd: p.dir,
        env: { PATH: process.env.PATH, HOME: process.env.HOME, ...p.env },
        stdio: ['ignore', 'ignore', 'ignore'],
      });
      const exited = once(client, 'exit');
      const box = sandboxChild(st.pid, Date.now() + 15_000);
      expect(box).toBeDefined();
      signal(box!, 'SIGSTOP');
      process.kill(st.pid, 'SIGKILL');
      expect(await waitFor(() => gone(st.pid), 5000)).toBe(true);
      for (const x of processesWith(mark)) signal(x, 'SIGCONT');
      const [code] = (await exited) as [number];
      expect(code).toBe(ExitCode.daemonLost);
      if (!(await waitFor(() => processesWith(mark).length === 0, 4000))) {
        left.push(`round ${i}: ${processesWith(mark).length} left`);
        for (const x of processesWith(mark)) signal(x, 'SIGKILL');
      }
    }
    expect(left).toEqual([]);
  }, 180_000);
});
