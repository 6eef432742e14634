// Ctrl+C on a real terminal while a spinner is on screen: every command that shows one exits 130
// and leaves no child behind. A pseudo-terminal (Python pty, with a size: no width, no spinner)
// and TERM=xterm-256color, as a user has.
import { afterAll, describe, expect, it } from 'vitest';
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { BIN, tempProject } from '../helpers.js';

// A number no other process on the machine has in its command line: how we find leftovers.
const MARK = `4${process.pid % 1000}.7531`;

const p = tempProject({
  'toolbox.config.yaml': 'registry: tool_registry\n',
  'tool_registry/slow.yaml': `id: slow
name: Slow
description: Waits for the given number of seconds, then returns. Use it when testing cancellation.
schema:
  type: object
  properties:
    seconds: { type: string, description: How long to wait, in seconds. }
  required: [seconds]
loader: command
loader_config:
  argv: [sleep, "{{seconds}}"]
  parse: text
timeout: 120
`,
});
afterAll(() => p.cleanup());

function leftovers(): string[] {
  const ps = execFileSync('ps', ['-eo', 'pid,args'], { encoding: 'utf8' });
  return ps.split('\n').filter((l) => l.includes(`sleep ${MARK}`) || l.includes(`sleep ${MARK}1`));
}

/** Run toolbox in a pty; once `wait` is on screen, type Ctrl+C. Returns the exit code. */
function interrupt(argv: string[], wait: string): number {
  const out = execFileSync(
    'python3',
    [join(import.meta.dirname, 'pty-driver.py'), JSON.stringify([[wait, '\x03']]), process.execPath, BIN, ...argv],
    {
      cwd: p.dir,
      encoding: 'utf8',
      env: { PATH: process.env.PATH, HOME: process.env.HOME, TERM: 'xterm-256color', PTY_SIZE: '24x100' },
      timeout: 90_000,
    },
  );
  return Number(out.trim().split('\n').pop());
}

describe('Ctrl+C under a terminal', () => {
  it('toolbox run: exit 130 with the spinner on screen, the tool process gone', () => {
    // The spinner's text ('running slow…') proves the spinner was up when ^C came.
    expect(interrupt(['run', 'slow', '--seconds', MARK], 'running slow')).toBe(130);
    expect(leftovers()).toEqual([]);
  });

  it('toolbox import mcp: exit 130 while connecting, the server process gone', () => {
    expect(interrupt(['import', 'mcp', '--', 'sleep', `${MARK}1`], 'connecting to')).toBe(130);
    expect(leftovers()).toEqual([]);
  });
});
